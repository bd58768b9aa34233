// /proc/stat's parser (daemon/collect/parse_stat.hh), see proc_fuzz.hh.
#include "daemon/collect/parse_stat.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

std::string Show(const pm::StatSnapshot& s) {
  std::string out = s.has_total ? "cpu" : "-";
  pm::fuzz::AppendNumbers(out, s.total);
  for (const pm::CoreTimes& core : s.cores) {
    out += "\ncpu" + std::to_string(core.id);
    pm::fuzz::AppendNumbers(out, core.times);
  }
  out += "\nctxt " + std::to_string(s.ctxt) + " processes " + std::to_string(s.processes);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::StatSnapshot>(
      data, size, [](std::string_view t, pm::StatSnapshot& o) { pm::ParseStat(t, o); }, Show);
  return 0;
}
