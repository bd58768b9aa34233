// /proc/loadavg's and /proc/stat's procs_* parsers
// (daemon/collect/parse_loadavg.hh), see proc_fuzz.hh.
#include "daemon/collect/parse_loadavg.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

std::string Show(const pm::LoadValues& v) {
  std::string out;
  pm::fuzz::AppendNumbers(out, v);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::LoadValues>(
      data, size,
      [](std::string_view t, pm::LoadValues& o) {
        pm::ParseLoadavg(t, o);
        pm::ParseProcsLines(t, o);
      },
      Show);
  return 0;
}
