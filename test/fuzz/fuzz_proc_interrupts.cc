// /proc/interrupts' parser (daemon/collect/parse_interrupts.hh), see
// proc_fuzz.hh; also CollapseBlanks on every description.
#include "daemon/collect/parse_interrupts.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

std::string Show(const pm::Interrupts& s) {
  std::string out = "cpus";
  for (int cpu : s.cpus) out += " " + std::to_string(cpu);
  pm::fuzz::Require(s.counts.size() == s.rows.size() * s.cpus.size(),
                    "one count per row and CPU");
  for (size_t i = 0; i < s.rows.size(); ++i) {
    out += "\n";
    out.append(s.rows[i].name).append(":");
    pm::fuzz::AppendNumbers(out, s.RowCounts(i));
    out += " " + pm::CollapseBlanks(s.rows[i].descr);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::Interrupts>(
      data, size, [](std::string_view t, pm::Interrupts& o) { pm::ParseInterrupts(t, o); },
      Show);
  return 0;
}
