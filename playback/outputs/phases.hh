// Active-time accounting for `summary`: a recording with pauses is a run of
// segments (a pause or resume event ends one); its averages are the sums of
// the counter deltas within the segments over the sum of their durations.
//
// ActiveSpan does that with flat memory: it keeps the first and the last
// sample, and the counters (and time) that passed in the gaps between
// segments. ActiveEnd() is the last sample with every gap taken out, so
// a report over (first(), ActiveEnd()) gives the exact active-time averages of
// cumulative counters, and, without a gap, is the plain first→last pair
// (PerfMonger's summary, digit for digit). Rows are matched by name (cores
// by index); a row missing on either side of a gap keeps that gap's counts.
//
// Phases: a mark splits the recording. The sample taken at the mark ends
// one phase and starts the next; a mark while paused splits the paused
// time at the mark's instant. Every phase's deltas and times add up to the
// whole recording's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "playback/reading/raw_sample.hh"

namespace pm {

class ActiveSpan {
 public:
  ActiveSpan() = default;
  // A span that starts inside a pause at `t_ns` (a mark while paused): the
  // time up to its first sample is paused time.
  static ActiveSpan StartingPaused(int64_t t_ns);

  void Sample(const RawSample& s);  // in file order
  // A pause or resume event at `t_ns`: the segment ends. A pause before
  // any sample (a recording started paused) makes the time from `t_ns` to
  // the first sample paused time.
  void Break(bool pause_event, int64_t t_ns);
  // Ends the span at a mark (instant `t_ns`): when a pause is open, the
  // paused time up to `t_ns` is this span's.
  void EndAt(int64_t t_ns);

  bool empty() const { return count_ == 0; }
  bool in_gap() const { return broken_; }  // after a pause/resume event
  // Between a sample and the next one across a gap: time there is paused.
  bool pause_open() const { return pending_ || (broken_ && count_ > 0); }
  bool has_pauses() const { return has_pauses_; }
  const RawSample& first() const { return first_; }
  const RawSample& last() const { return last_; }
  RawSample ActiveEnd() const;             // requires !empty()
  int64_t paused_ns() const { return paused_ns_; }

 private:
  RawSample first_, last_;
  RawSample gaps_;  // counters that moved in the gaps (wrapping sums)
  uint64_t count_ = 0;
  bool broken_ = false;
  bool has_pauses_ = false;
  bool pending_ = false;  // started paused, no sample yet
  int64_t pending_ns_ = 0;
  int64_t paused_ns_ = 0;
};

// The scans of everyone else (playback/reading/scan_event.hh) that bound a span:
// the one after the instant it starts (the start's, its mark's) and the one
// at its end (the next mark's, the stop's); null when not recorded.
struct SpanScans {
  std::shared_ptr<const ScanEvent> begin, end;
};

// A phase of `summary --phases`: its label ("start" for the first), its
// span and its scans.
struct Phase {
  std::string label;
  ActiveSpan span;
  SpanScans scans = {};
};

// The walk over a recording's items, in file order: the whole span, and,
// with `split`, one span per phase (the first labelled "start").
class PhaseWalk {
 public:
  explicit PhaseWalk(bool split) : split_(split) {
    if (split) phases_.push_back({"start", {}});
  }
  void OnSample(const RawSample& s);
  // pause, resume, mark, end (a pause still open ends there), scan; others
  // ignored
  void OnEvent(const RecordingEvent& e);
  const ActiveSpan& whole() const { return whole_; }
  const SpanScans& whole_scans() const { return whole_scans_; }
  const std::vector<Phase>& phases() const { return phases_; }

 private:
  void Mark(const RecordingEvent& e);
  void Scan(const std::shared_ptr<const ScanEvent>& scan);

  bool split_;
  ActiveSpan whole_;
  SpanScans whole_scans_;
  std::vector<Phase> phases_;
};

}  // namespace pm
