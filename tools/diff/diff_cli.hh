// `perfmonger diff A.pgr B.pgr` and `perfmonger diff A1 A2 A3 -- B1 B2 B3`:
// did the system behave differently, phase by phase, with statistics that
// do not treat autocorrelated samples as independent
// (docs/diff-statistics.md).
#pragma once

#include <string>
#include <vector>

#include "playback/statistics/diff_stats.hh"
#include "tools/diff/diff_fail_on.hh"
#include "tools/option_table.hh"

namespace pm {

enum class DiffFormat { kText, kJson, kCsv };  // --format's choices, in order

struct DiffArgs {
  bool help = false;
  std::vector<std::string> a, b;  // the runs of each side
  bool align_time = false;        // --align time
  DiffFormat format = DiffFormat::kText;
  RunTest test = RunTest::kWelch;
  double fdr = 0.05;
  std::vector<std::string> series;  // --series GLOB
  std::vector<FailOn> fail_on;      // --fail-on RULE
  std::string report;               // --report FILE.html; "": none
};

// The option table (data: tools/command_catalog.hh walks it).
const Command<DiffArgs>& DiffCommand();

// Throws UsageError naming the fix (exit 1).
DiffArgs ParseDiffArgs(int argc, char** argv);

// Returns the exit status: 0 compared, 1 usage or unreadable input, 2 a
// corrupt recording (or lines lost to damage, after the output), 3 a
// significant change passed a --fail-on rule.
int DiffMain(int argc, char** argv);

}  // namespace pm
