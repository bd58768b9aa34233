// A chart of lines measured from its data file's text, as gnuplot will
// draw it: which blocks are idle (every point 0 over the window), which
// are the busiest (by volume: the sum of their points), and the "others"
// series that stands for the rest, written as a data file of its own
// (PerfMonger's files stay byte for byte its own).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pm {

// One block's lines: column 1 (elapsed time) and the rest, and whether a
// blank line (a pause) comes before the row.
struct BlockRows {
  std::vector<std::vector<double>> rows;
  std::vector<bool> gap_before;
};
// Rows whose time is in `skip` are left out.
BlockRows ParseBlock(std::string_view text);

// The columns of a chart line's expression, "$N" or "$N+$M+...", 1-based.
// Throws std::logic_error for any other: a report's constant is wrong.
std::vector<size_t> ExprColumns(std::string_view expr);

struct SeriesStats {
  double volume = 0;  // the sum of |points|
  double peak = 0;    // the largest point
  size_t defined = 0; // points not NaN (drawn)
};
SeriesStats Measure(const BlockRows& block, std::string_view expr);

// The data file of the "others" series: per elapsed time, one column per
// expression, each the sum of the blocks' values there; a blank line
// where any block has one (a pause).
std::string OthersFile(const std::vector<const BlockRows*>& blocks,
                       const std::vector<std::string_view>& exprs);

// A throughput axis: its label's unit and what a data value is multiplied
// by to be in it.
struct AxisUnit {
  std::string name;  // "MiB/s"
  double factor;
};
// The unit for a peak `peak` of values of `bytes_per_unit` bytes/s: the
// largest of B/s, KiB/s, MiB/s, GiB/s the peak reaches; with `bits`,
// bit/s, kbit/s, Mbit/s, Gbit/s (a link's decimal units).
AxisUnit ThroughputUnit(double peak, double bytes_per_unit, bool bits);

}  // namespace pm
