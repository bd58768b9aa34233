// `diff --report`'s charts: for each chart of `plot --report` (a report's
// ChartSpec, playback/reports/plot_chart.hh) but the per-core strips, one
// gnuplot script (SVG) drawing both runs on the shared time axis
// (overlay_align.hh), A in blue, B in red, each titled by its run ("A:
// a.pgr", "B: b.pgr"). What each run draws is kept to a few lines: a
// stacked chart its whole stack (the top layer's sum), a chart of lines
// its "total" block where it has one, else the busiest three blocks of
// both runs, one line per line of the spec, told apart by dashes.
#pragma once

#include <string>
#include <vector>

#include "playback/outputs/plot_data.hh"
#include "tools/diff/overlay_align.hh"

namespace pm {

struct OverlayRun {
  const PlotData* data = nullptr;
  std::string name;    // "A: a.pgr": its lines' titles start so
  std::string prefix;  // its data files' in gnuplot's directory: "a-"
};

struct OverlayScript {
  std::string name;    // NAME.gp draws NAME.svg
  std::string title;   // one line, for the SVG's <title>
  std::string script;
};

// `subtitle`: the chart's second title line (the runs and the alignment).
std::vector<OverlayScript> MakeOverlayScripts(const OverlayRun (&runs)[2],
                                              const Timeline& timeline,
                                              const std::string& subtitle);

}  // namespace pm
