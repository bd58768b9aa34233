// /proc/meminfo's parser (daemon/collect/parse_meminfo.hh), see
// proc_fuzz.hh: its per-line key cache must never change a result.
#include "daemon/collect/parse_meminfo.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

std::string Show(const pm::MemInfo& s) {
  std::string out = s.present ? "present" : "absent";
  pm::fuzz::AppendNumbers(out, s.values);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::MemInfo>(
      data, size, [](std::string_view t, pm::MemInfo& o) { pm::ParseMeminfo(t, o); }, Show);
  return 0;
}
