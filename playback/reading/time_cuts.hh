// The instants at which a time window (playback/reading/sample_window.hh) starts
// and ends, for summary's skim (playback/reading/skimmed_lines.hh,
// skimmed_deltas.hh): a run of samples that crosses one is split there, so
// that the samples on both sides of the cut are parsed and the window gets
// its first and last sample exactly. The window sets them once it knows
// them (at the first item: elapsed times count from the recording's
// origin, known then); the skim only
// reads them. A window bounded by marks needs no cut: a mark is an event,
// and events end runs already.
#pragma once

#include <cstdint>
#include <limits>

namespace pm {

struct TimeCuts {
  int64_t from = std::numeric_limits<int64_t>::min();  // first instant inside
  int64_t to = std::numeric_limits<int64_t>::max();    // last instant inside

  bool any() const {
    return from != std::numeric_limits<int64_t>::min() ||
           to != std::numeric_limits<int64_t>::max();
  }
  // 0 before the window, 1 inside, 2 after: a run is cut where it changes.
  int Region(int64_t t_ns) const { return (t_ns >= from) + (t_ns > to); }
};

}  // namespace pm
