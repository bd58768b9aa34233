#include "playback/statistics/stats_walk.hh"

namespace pm {

StatsWalk::StatsWalk(StatsWalkOptions how, const ReportOptions& options)
    : how_(how), options_(options) {
  whole_.set_grid(how.grid);
  if (how.keep_batches) whole_.KeepBatches();
  if (how.use) use_.emplace_back(*how.use, how.num_core);
  if (how.split) NewPhase("start");
}

void StatsWalk::NewPhase(const std::string& label) {
  phases_.emplace_back().set_grid(how_.grid);
  labels_.push_back(label);
  if (how_.keep_batches) phases_.back().KeepBatches();
  if (how_.use) use_phases_.emplace_back(*how_.use, how_.num_core);
}

// play's origin, so "max at" reads as play's elapsed_time.
void StatsWalk::SetOrigin(TimeOrigin o) {
  if (have_origin_) return;
  have_origin_ = true;
  whole_.set_origin(o);
  for (SpanStats& p : phases_) p.set_origin(o);
}

void StatsWalk::First(const RawSample& s) {
  if (how_.whole) whole_.First(s, options_, prev_.layout());
  if (how_.split) phases_.back().First(s, options_, prev_.layout());
  for (UseSpan& u : use_) u.First();
  if (!use_phases_.empty()) use_phases_.back().First();
}

// On the grid a sample waits for the next item, which tells whether a
// mark, a pause or the stop took it.
void StatsWalk::OnSample(const RawSample& s) {
  SetOrigin(TimeOrigin::Of(s));
  if (!how_.grid) return Take(s);
  if (held_) Take(*held_);
  held_ = s;
}

void StatsWalk::Take(const RawSample& s) {
  prev_.Check(s);
  if (!have_prev_ || IntervalNs(prev_.sample(), s) <= 0) {
    First(s);
  } else {
    const Pair pair(prev_.sample(), s, whole_.origin(), options_);
    if (how_.whole) whole_.Add(pair, prev_.layout());
    if (how_.split) phases_.back().Add(pair, prev_.layout());
    for (UseSpan& u : use_) u.Add(pair);
    if (!use_phases_.empty()) use_phases_.back().Add(pair);
  }
  prev_.Keep(s);
  have_prev_ = true;
}

void StatsWalk::Drop() {
  if (!held_) return;
  held_.reset();
  whole_.LeaveOut();
  if (how_.split) phases_.back().LeaveOut();
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
  SetOrigin(TimeOrigin::Of(e));
  Drop();  // a pause's closing sample, a mark's
  if (e.kind != "mark") {
    have_prev_ = false;
  } else if (how_.split) {
    NewPhase(e.label);
    phases_.back().set_origin(whole_.origin());
    // The mark's sample opens it (on the grid: the tick before the mark).
    if (have_prev_) phases_.back().First(prev_.sample(), options_, prev_.layout());
  }
}

}  // namespace pm
