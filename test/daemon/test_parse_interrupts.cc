#include <doctest/doctest.h>

#include <vector>

#include "common/error.hh"
#include "daemon/collect/parse_interrupts.hh"

using pm::CollapseBlanks;
using pm::FormatError;
using pm::Interrupts;
using pm::ParseInterrupts;

namespace {
std::vector<uint64_t> Counts(const Interrupts& intr, size_t row) {
  auto span = intr.RowCounts(row);
  return std::vector<uint64_t>(span.begin(), span.end());
}
using V = std::vector<uint64_t>;
}  // namespace

TEST_CASE("ParseInterrupts: x86 rows, per-CPU rows and single-total rows") {
  Interrupts intr;
  ParseInterrupts(
      "           CPU0       CPU1       \n"
      "  0:         44          0   IO-APIC   2-edge      timer\n"
      " 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
      " 28:          0          7 PCI-MSIX-0000:00:01.0   0-edge      virtio0-config\n"
      "NMI:          0          0   Non-maskable interrupts\n"
      "LOC:      12345      67890   Local timer interrupts\n"
      "ERR:          3\n"
      "MIS:          0\n",
      intr);
  CHECK(intr.cpus == std::vector<int>{0, 1});
  REQUIRE(intr.rows.size() == 7);
  CHECK(intr.rows[0].name == "0");
  CHECK(Counts(intr, 0) == V{44, 0});
  CHECK(intr.rows[1].name == "24");
  CHECK(intr.rows[1].descr == "IO-APIC   5-edge      ACPI:Ged");
  CHECK(CollapseBlanks(intr.rows[1].descr) == "IO-APIC 5-edge ACPI:Ged");
  CHECK(CollapseBlanks(intr.rows[2].descr) == "PCI-MSIX-0000:00:01.0 0-edge virtio0-config");
  CHECK(Counts(intr, 2) == V{0, 7});
  CHECK(intr.rows[4].name == "LOC");
  CHECK(Counts(intr, 4) == V{12345, 67890});
  CHECK(intr.rows[5].name == "ERR");
  CHECK(Counts(intr, 5) == V{3, 0});
  CHECK(intr.rows[5].descr.empty());
  CHECK(intr.rows[6].name == "MIS");
}

TEST_CASE("ParseInterrupts: odd shapes are never errors") {
  Interrupts intr;
  ParseInterrupts(
      "     CPU0  CPU2  CPU3  CPU7\n"           // offline CPUs leave gaps
      "IPI0:  1  2  3  4  Rescheduling interrupts\n"
      "NMI:   5  6  7  8 \n"                     // no description, trailing blank
      " 11:   9 10   Edge  2-level\n"            // fewer counts than CPUs, then text
      "Err:\n"                                   // no numbers at all
      " 12:   1  2  3  4  5 6 7\n"               // numbers beyond the CPUs: description
      " 13:   1  2x 3  4  odd\n",
      intr);
  CHECK(intr.cpus == std::vector<int>{0, 2, 3, 7});
  REQUIRE(intr.rows.size() == 6);
  CHECK(Counts(intr, 0) == V{1, 2, 3, 4});
  CHECK(intr.rows[0].descr == "Rescheduling interrupts");
  CHECK(Counts(intr, 1) == V{5, 6, 7, 8});
  CHECK(intr.rows[1].descr.empty());
  CHECK(Counts(intr, 2) == V{9, 10, 0, 0});
  CHECK(intr.rows[2].descr == "Edge  2-level");
  CHECK(Counts(intr, 3) == V{0, 0, 0, 0});
  CHECK(intr.rows[4].descr == "5 6 7");
  CHECK(Counts(intr, 5) == V{1, 0, 0, 0});
  CHECK(intr.rows[5].descr == "2x 3  4  odd");
}

TEST_CASE("ParseInterrupts: reuse when rows and CPUs change") {
  Interrupts intr;
  ParseInterrupts("CPU0 CPU1\n0: 1 2 a\n1: 3 4 b\n", intr);
  CHECK(intr.counts.size() == 4);
  ParseInterrupts("CPU0\n1: 5 b\n", intr);
  CHECK(intr.cpus == std::vector<int>{0});
  REQUIRE(intr.rows.size() == 1);
  CHECK(intr.rows[0].name == "1");
  CHECK(Counts(intr, 0) == V{5});
}

TEST_CASE("ParseInterrupts: malformed files are FormatErrors naming the line") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"", "/proc/interrupts:1: empty file; expected a CPU header line"},
      {"   \n 0: 1\n", "/proc/interrupts:1: no CPU column names in the header line"},
      {"CPU0 foo\n", "/proc/interrupts:1: expected CPU column names like 'CPU0', got 'foo'"},
      {"CPU0 CPUx\n", "/proc/interrupts:1: expected CPU column names like 'CPU0', got 'CPUx'"},
      {"CPU0\n0: 1 a\nbogus line\n", "/proc/interrupts:3: expected 'label: counts'"},
      {"CPU0\n : 1\n", "/proc/interrupts:2: expected 'label: counts'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    Interrupts intr;
    CHECK_THROWS_WITH_AS(ParseInterrupts(c.text, intr), c.error, FormatError);
  }
}

TEST_CASE("CollapseBlanks") {
  CHECK(CollapseBlanks("") == "");
  CHECK(CollapseBlanks("   ") == "");
  CHECK(CollapseBlanks(" a\t\tb   c ") == "a b c");
}
