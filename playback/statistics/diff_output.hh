// `perfmonger diff`'s three outputs of one DiffResult (diff_table.hh).
//
// Text: a heading naming the test (run-level, or within-run with its
// caveat), one line per significant change, largest first:
//   phase  series  unit  mean A  mean B  change  95 % CI  q
// (the change and its interval relative, B/A − 1, in %; absolute when A's
// mean is 0), then one line summarising the insignificant ones, then what
// was not compared.
// JSON: one object {"mode","test","fdr","runs_a","runs_b","tests",
// "significant","series":[{...}],"not_compared":[...]}; every row with
// both sides' mean, p50, p95, p99, the change absolute and relative with
// their intervals, the statistic, df, p and q (null where undefined).
// CSV: a header line and one line per row, in the text's order.
#pragma once

#include <string>

#include "playback/statistics/diff_table.hh"

namespace pm {

// `a_files`, `b_files`: the runs as named on the command line.
struct DiffSides {
  std::vector<std::string> a_files, b_files;
};

std::string DiffText(const DiffResult& r, const DiffSides& sides);
std::string DiffJson(const DiffResult& r, const DiffSides& sides);
std::string DiffCsv(const DiffResult& r);

}  // namespace pm
