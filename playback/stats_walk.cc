#include "playback/stats_walk.hh"

namespace pm {

StatsWalk::StatsWalk(bool split, const ReportOptions& options, bool keep_batches)
    : split_(split), options_(options), keep_batches_(keep_batches) {
  if (keep_batches) whole_.KeepBatches();
  if (split) NewPhase("start");
}

void StatsWalk::NewPhase(const std::string& label) {
  phases_.emplace_back();
  labels_.push_back(label);
  if (keep_batches_) phases_.back().KeepBatches();
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

void StatsWalk::OnSample(const RawSample& s) {
  Origin(TimeOrigin::Of(s));
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

void StatsWalk::OnEvent(const RecordingEvent& e) {
  if (e.kind == "pause" || e.kind == "resume") {
    Origin(TimeOrigin::Of(e));
    have_prev_ = false;
  } else if (e.kind == "mark") {
    Origin(TimeOrigin::Of(e));
    if (!split_) return;
    NewPhase(e.label);
    phases_.back().set_origin(whole_.origin());
    if (have_prev_) phases_.back().First(prev_, options_);  // the mark's sample opens it
  }
}

}  // namespace pm
