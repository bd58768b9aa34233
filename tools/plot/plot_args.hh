// The command line of `plot`: PerfMonger's options, one option table.
#pragma once

#include "playback/reports/disk_filter.hh"
#include "playback/reading/sample_window.hh"
#include "tools/option_table.hh"

#include <optional>
#include <string>
#include <vector>

namespace pm {


enum class ChartType { kPdf, kPng, kSvg };

// Which disk directions the disk charts draw (PerfMonger's
// --plot-read-only / --plot-write-only / --plot-read-write).
struct DiskDirections {
  bool read = true;
  bool write = true;
};

struct PlotArgs {
  bool help = false;
  std::string file;                 // "-": stdin
  std::vector<std::string> files;   // every FILE or DIR given: one timeline
  double offset_time = 0;           // --offset-time: time axis starts here
  std::string output_dir = ".";     // -o: created when missing
  ChartType type = ChartType::kPdf; // -T (with --report and no -T: svg, an HTML page)
  std::string prefix;               // -p: before every file name
  bool save = false;                // -s: keep the .dat and .gp files
  std::optional<DiskFilter> disk_only;
  std::string disk_only_pattern;    // as given, for messages
  DiskDirections directions;
  int numkey_threshold = 10;        // more keys than this: the quietest folded
  bool all_devices = false;         // draw idle devices too
  bool bits = false;                // network charts in bit/s
  bool wall_clock = false;          // the time axis in UTC
  bool report = false;              // one HTML page (or -T pdf: one PDF)
  bool type_given = false;          // -T was given
  double iops_max = 0;              // 0: autoscale
  std::string gnuplot = "gnuplot";  // --with-gnuplot
  WindowSpec window;                // --from, --to, --phase
};

// The option table (data: tools/command_catalog.hh walks it).
const Command<PlotArgs>& PlotCommand();

// Throws UsageError naming the fix (exit 1).
PlotArgs ParsePlotArgs(int argc, char** argv);

const char* ChartExtension(ChartType type);  // "pdf", "png", "svg"

}  // namespace pm
