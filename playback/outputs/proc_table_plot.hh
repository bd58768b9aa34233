// plot's chart of the process table (record --record-procs): each
// process's CPU over time, a line per process in its own colour; past the
// legend threshold (--numkey-threshold) the busiest keep their lines and
// the rest are summed as "others" (tools/plot/plot_line_scripts.cc).
//
//   proctable.dat  a block per process, titled "# process: PID COMM", in
//                  pid order; columns elapsed_time %cpu %usr %sys (of one
//                  core: its CPU clock, and its user and system ticks)
//
// A process has a line for each interval a procs line lists it in (it
// ran), and after its last such interval before one it sat out, a 0
// and a gap: no line is drawn across the intervals it did not run.
// A sample the table skipped (it scans every Nth at a short interval)
// has no line.
#pragma once

#include <cstddef>

#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"

namespace pm {

inline constexpr PlotFileSpec kProcTableFile = {
    "proctable.dat", "# elapsed_time\t%cpu\t%usr\t%sys\n"};

inline constexpr ChartLine kProcTableLines[] = {{"", "$2"}};
// The chart, drawn from proctable.dat as the report's file `file`.
constexpr ChartSpec ProcTableChart(size_t file) {
  return {.name = "proctable-cpu",
          .title = "Busiest processes' CPU",
          .ylabel = "%CPU (100 = one core busy)",
          .file = file,
          .lines = kProcTableLines};
}

// The pair's lines of proctable.dat, the report's file `file`.
void PlotProcTable(PlotLines& out, const Pair& p, size_t file);

}  // namespace pm
