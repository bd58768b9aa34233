// `perfmonger diff --report FILE.html`: one self-contained HTML page, as
// `plot --report`'s (its style, charts drawn by gnuplot's SVG terminal,
// inline, nothing fetched): the ranked changes table on top (diff's text
// output), then one chart per chart of the plot report (but the per-core
// strips) with B's first run overlaid on A's first (overlay_charts.hh),
// on a time axis whose phases are aligned by mark label or, with --align
// time, not moved (overlay_align.hh).
#pragma once

#include <string>

namespace pm {

struct DiffReportRequest {
  std::string path;         // --report FILE.html
  std::string a, b;         // the runs overlaid, as named on the command line
  bool align_time = false;  // --align time
  std::string table;        // the ranked changes, as diff prints them
};

// Before any work: the runs overlaid, `a` and `b`, are files (not stdin,
// which cannot be read twice), and `path` can be opened for writing as
// common/output_file.hh opens it (made and removed again when it was not
// there; an existing file is not truncated). Throws UsageError naming the
// fix, or ChartError when gnuplot is not on PATH.
void CheckReport(const std::string& path, const std::string& a, const std::string& b);

// Reads the two runs again (their warnings were given by diff's reading),
// draws the charts in a private scratch directory and writes the page.
// Throws ChartError (gnuplot missing or failing), PlotStopped (a stop
// signal), and the readers' and the output's errors.
void WriteDiffReport(const DiffReportRequest& request);

}  // namespace pm
