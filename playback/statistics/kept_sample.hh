// StatsWalk's copy of the sample before the one it walks, and a number
// for the rows both are spelled with (their layout), so that SpanStats
// can recognise a series by where its name's parts are instead of reading
// the name for every value (playback/reports/stat_row.hh says what a
// report may point its parts at).
//
// The layout changes whenever a name could now read differently at an
// address it read before: the new sample's rows differ from the kept
// one's (names, carried members, widths, null rows), its names moved
// (another RawSample, a reallocated name), or the kept copy was rewritten
// whole. A recording keeps its rows for long stretches (a device or a
// process appears or goes away), so between those only the values are
// copied, and the names neither compared byte by byte per value nor
// copied per sample.
//
//   kept.Check(s);   // before the pair (kept.sample(), s) or a first s
//   ... the pair, under kept.layout() ...
//   kept.Keep(s);    // s is the sample before the next one
#pragma once

#include <cstdint>
#include <vector>

#include "playback/reading/raw_sample.hh"

namespace pm {

class KeptSample {
 public:
  // Compares `s` with the kept sample; a new layout() if their rows differ.
  void Check(const RawSample& s);
  // `s` is kept: only its values and instants when Check found its rows
  // the same (then the layout stays), else whole (then a new layout).
  void Keep(const RawSample& s);

  const RawSample& sample() const { return kept_; }
  // Never 0 once Check was called (SpanStats takes 0 for "not known").
  uint64_t layout() const { return layout_; }

 private:
  bool SameRows(const RawSample& s) const;
  void NoteAddresses(const RawSample& s);

  RawSample kept_;
  bool have_ = false;
  bool same_ = false;                  // Check's answer, for Keep
  std::vector<const char*> names_at_;  // where the last sample's names were
  uint64_t layout_ = 0;
};

}  // namespace pm
