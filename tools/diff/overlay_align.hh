// `diff --report`'s shared time axis: where each of the two runs' points
// go when the second is overlaid on the first. By mark label (the
// default), phases are matched as `diff` matches them (PhaseKeys: a
// label's k-th phase with its k-th) and each matched pair gets one slot
// on the axis, as long as the longer of the two: both runs' phases start
// at the slot's start and keep their own relative time within it (no
// stretching; the shorter one ends early). Phases only one run has get
// slots of their own, after A's (B's in B's order). With --align time
// both runs keep their relative time, A's marks on the axis.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "playback/outputs/plot_data.hh"

namespace pm {

// A run's phases: "start" from its first sample, then one per mark.
struct RunPhases {
  std::vector<std::string> keys;  // PhaseKeys() of their labels
  std::vector<double> starts;     // elapsed seconds, ascending
  double end = 0;                 // the last point's elapsed time
};
RunPhases PhasesOf(const PlotData& data);

struct OverlayMark {
  double at = 0;  // on the shared axis
  std::string label;
};

struct Timeline {
  std::vector<OverlayMark> marks;  // the slots' starts after the first
  double end = 0;
  // Per run (0: A, 1: B), per phase: added to its elapsed times.
  std::vector<double> shift[2];
  std::vector<double> starts[2];   // RunPhases::starts
};

Timeline AlignByLabel(const RunPhases& a, const RunPhases& b);
Timeline AlignByTime(const RunPhases& a, const RunPhases& b);

// A data file's text (playback/outputs/plot_data.hh) with each line's time
// moved onto the axis for run `run`, and a blank line (a gap) where a
// block's lines pass from one phase to another.
std::string Realigned(std::string_view text, const Timeline& timeline, int run);

}  // namespace pm
