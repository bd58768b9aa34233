// Where each integer of a sample line goes in a RawSample, learned from
// one full parse of the line, so that the next lines of the same shape are
// read without parsing them: the walk that moves a Baseline
// (playback/reading/reader_baseline.hh) from line to line already validates each line
// against the one before — byte for byte outside its integers, each
// integer a plain decimal that fits 64 bits — and holds its values.
//
// The parse reports each integer it reads, in the order of the text
// (simdjson's tape keeps it), where Baseline::Split counts them too: the
// k-th integer of the parse is the Baseline's value k. End() keeps the
// shape only when both counted alike: a value the parse skipped (a member
// it does not know) that held integers makes the counts differ.
//
//   shape.Begin();
//   ... the parse: shape.Integer(&s.ctxt) ...
//   shape.End(baseline);       // split from the same line
//   ...
//   if (baseline.Follow(next) && shape.Fill(baseline)) ...  // s is `next`
#pragma once

#include <cstdint>
#include <vector>

#include "proto/pgr_baseline.hh"

namespace pm {

class SampleShape {
 public:
  // A parse starts: the shape learned before is forgotten.
  void Begin();
  // The parse's next integer went to `slot`; null: it was read and dropped
  // (a column this reader does not know).
  void Integer(uint64_t* slot) { slots_.push_back(slot ? slot : &dropped_); }
  // The same for a timestamp, read signed: a value at or above 2^63 (which
  // the walk lets through) makes Fill refuse, so the parse reports it.
  void Time(int64_t* slot);
  // The parse ended in a sample; `baseline` was split from the same line.
  void End(const Baseline& baseline);

  bool learned() const { return of_ != nullptr; }
  // Writes each of `baseline`'s values to its slot. False, writing nothing,
  // unless the shape was learned from `baseline`'s present split and every
  // timestamp fits.
  bool Fill(const Baseline& baseline);

 private:
  std::vector<uint64_t*> slots_;  // per integer of the line, in text order
  std::vector<uint32_t> times_;   // the integers that are timestamps
  uint64_t dropped_ = 0;
  const Baseline* of_ = nullptr;  // learned for this baseline and split
  uint64_t splits_ = 0;
};

}  // namespace pm
