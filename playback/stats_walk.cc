#include "playback/stats_walk.hh"

namespace pm {

StatsWalk::StatsWalk(bool split, const ReportOptions& options, bool grid)
    : split_(split), options_(options), grid_(grid) {
  whole_.set_grid(grid);
  if (split) phases_.emplace_back().set_grid(grid);
}

// play's origin: the first sample or event, so "max at" reads as play's
// elapsed_time.
void StatsWalk::Origin(TimeOrigin o) {
  if (have_origin_) return;
  have_origin_ = true;
  whole_.set_origin(o);
  for (SpanStats& p : phases_) p.set_origin(o);
}

void StatsWalk::First(const RawSample& s) {
  whole_.First(s, options_);
  if (split_) phases_.back().First(s, options_);
}

// On the grid a sample waits for the next item, which tells whether a
// mark, a pause or the stop took it.
void StatsWalk::OnSample(const RawSample& s) {
  Origin(TimeOrigin::Of(s));
  if (!grid_) return Take(s);
  if (held_) Take(*held_);
  held_ = s;
}

void StatsWalk::Take(const RawSample& s) {
  if (!have_prev_ || IntervalNs(prev_, s) <= 0) {
    First(s);
  } else {
    const Pair pair(prev_, s, whole_.origin(), options_);
    whole_.Add(pair);
    if (split_) phases_.back().Add(pair);
  }
  prev_ = s;
  have_prev_ = true;
}

void StatsWalk::Drop() {
  if (!held_) return;
  held_.reset();
  whole_.LeaveOut();
  if (split_) phases_.back().LeaveOut();
}

void StatsWalk::Finish() {
  if (held_) Take(*held_);
  held_.reset();
}

// A resume's sample is taken after its event, and starts the schedule anew:
// on the grid it is a tick like any other.
void StatsWalk::OnEvent(const RecordingEvent& e) {
  if (e.kind == "end") return Drop();  // the stop's sample
  if (e.kind != "pause" && e.kind != "resume" && e.kind != "mark") return;
  Origin(TimeOrigin::Of(e));
  Drop();  // a pause's closing sample, a mark's
  if (e.kind != "mark") {
    have_prev_ = false;
  } else if (split_) {
    phases_.emplace_back().set_grid(grid_);
    phases_.back().set_origin(whole_.origin());
    // The mark's sample opens it (on the grid: the tick before the mark).
    if (have_prev_) phases_.back().First(prev_, options_);
  }
}

}  // namespace pm
