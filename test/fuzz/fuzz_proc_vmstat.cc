// /proc/vmstat's parser (daemon/collect/parse_vmstat.hh), see proc_fuzz.hh.
#include "daemon/collect/parse_vmstat.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

std::string Show(const pm::VmstatValues& v) {
  std::string out;
  pm::fuzz::AppendNumbers(out, v.values);
  for (bool p : v.present) out.push_back(p ? '1' : '0');
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::VmstatValues>(
      data, size, [](std::string_view t, pm::VmstatValues& o) { pm::ParseVmstat(t, o); }, Show);
  return 0;
}
