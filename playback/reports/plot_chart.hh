// What a collector's charts are, as data (a report's plot slot,
// playback/reports/report.hh): `plot` (tools/plot/plot_scripts.cc) writes one gnuplot
// script per chart from it, reading the report's data files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace pm {

// One data file of a report: `columns` heads each block (a comment line),
// blocks are set apart by three blank lines, and `separate_first` puts
// them before the first block too (PerfMonger's disk.dat).
struct PlotFileSpec {
  std::string_view name;     // "cpu.dat"
  std::string_view columns;  // "# elapsed_time\t%usr\t...\n"
  bool separate_first = true;
};

enum class ChartKind : uint8_t {
  kStack,   // `layers` stacked as filled curves, from the file's first block
  kStrips,  // the same, one strip per block after the first, in a grid
  kLines,   // one line per block and `lines` entry
};

// A stacked layer: its legend title, colour, and the gnuplot expression of
// its top (`using 1:(EXPR)`), top layer first.
struct ChartLayer {
  std::string_view title, colour, expr;
};

enum class Direction : uint8_t { kBoth, kRead, kWrite };  // --plot-read-only etc.

// A line drawn for every block: titled "BLOCK WORD", `expr` as above,
// dashed or solid; a read or write line obeys the read/write choice when
// the chart is `directional`; `y2`: in the chart's second unit, on the
// right-hand axis (`y2label`). Each line of a chart gets its own colour.
struct ChartLine {
  std::string_view word, expr;
  bool dashed = false;
  Direction direction = Direction::kBoth;
  bool y2 = false;
};

// A block named "total": drawn (black) when there are several others, or
// never.
enum class TotalLine : uint8_t { kWhenSeveral, kNever };

struct ChartSpec {
  std::string_view name = {};    // NAME.gp, NAME.pdf: "disk-iops"
  std::string_view title = {};   // "Disk IOPS"
  std::string_view ylabel = {};
  std::string_view y2label = {};  // the right-hand axis: lines with `y2`
  ChartKind kind = ChartKind::kLines;
  size_t file = 0;          // of the report's files
  std::span<const ChartLayer> layers = {};
  std::span<const ChartLine> lines = {};
  TotalLine total = TotalLine::kNever;
  double ymax = 0;             // the y axis' top; 0: automatic
  bool ymax_per_strip = false; // ymax × the file's blocks after the first (cores)
  bool directional = false;    // --plot-read-only, --plot-write-only
  bool iops_axis = false;      // --plot-iops-max sets its top
  std::string_view strip_label = {};  // kStrips: each strip labelled "LABEL BLOCK"
  // A throughput chart: its lines' unit in bytes per second (disk.dat's
  // MB/s: 2^20); the axis is scaled to B/s ... GiB/s by the peak drawn, and
  // its label is `ylabel` and the unit.
  double bytes_per_unit = 0;
  bool network = false;  // --bits draws it in bit/s ... Gbit/s
  // An expression that is 0 on a line that measured nothing (cpu.dat's
  // zero rows, PerfMonger's): such a line is not drawn. Empty: none such.
  std::string_view measured = {};
};

}  // namespace pm
