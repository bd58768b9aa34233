// /proc/schedstat's parser (daemon/collect/parse_schedstat.hh), see
// proc_fuzz.hh.
#include "daemon/collect/parse_schedstat.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

std::string Show(const pm::SchedstatSnapshot& s) {
  std::string out = "version " + std::to_string(s.version);
  for (const pm::SchedstatCpu& cpu : s.cpus)
    out += "\ncpu" + std::to_string(cpu.id) + " " + std::to_string(cpu.run_ns) + " " +
           std::to_string(cpu.wait_ns);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::SchedstatSnapshot>(
      data, size, [](std::string_view t, pm::SchedstatSnapshot& o) { pm::ParseSchedstat(t, o); },
      Show);
  return 0;
}
