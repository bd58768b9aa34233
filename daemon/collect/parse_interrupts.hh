// /proc/interrupts: interrupt counts per source and CPU. Pure: text in,
// struct out.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pm {

struct IntrRow {
  std::string_view name;   // "24", "NMI", "LOC", "ERR": the label before ':'
  std::string_view descr;  // the rest of the line, trimmed, blank runs kept
};

struct Interrupts {
  std::vector<int> cpus;  // N of each "CPUN" in the header line, in order
  std::vector<IntrRow> rows;
  // rows.size() x cpus.size() counts, row-major.
  std::vector<uint64_t> counts;

  std::span<const uint64_t> RowCounts(size_t row) const noexcept {
    return std::span<const uint64_t>(counts).subspan(row * cpus.size(), cpus.size());
  }
};

// Parses into `out`, reusing its storage; names view `text`. The first line
// names the CPU columns. Each row is "label: count per CPU description";
// rows such as ERR and MIS carry one total and no description: it lands in
// the first CPU's column and the other columns are 0. A row with fewer
// counts than CPUs is never an error. Throws FormatError "source:line: ...".
void ParseInterrupts(std::string_view text, Interrupts& out,
                     std::string_view source = "/proc/interrupts");

// A description for display: blank runs collapsed to one space
// ("IO-APIC   5-edge      ACPI:Ged" -> "IO-APIC 5-edge ACPI:Ged").
std::string CollapseBlanks(std::string_view descr);

}  // namespace pm
