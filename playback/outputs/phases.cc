#include "playback/outputs/phases.hh"

#include <algorithm>

#include "playback/reports/reports.hh"
#include "proto/pgr_collector_spec.hh"

namespace pm {
namespace {

// The accumulator's row named `name` (created, zeroed, if new).
std::span<uint64_t> Slot(MemberRows& acc, const std::string& name, size_t width) {
  size_t i = acc.Find(name, acc.rows());
  if (i != MemberRows::npos) return acc.row(i);
  acc.width = width;
  acc.names.push_back(name);
  acc.present.push_back(1);
  acc.values.resize(acc.values.size() + width);
  return acc.row(acc.rows() - 1);
}

// acc += to − from: what moved in one gap.
void AddGap(RawSample& acc, const RawSample& from, const RawSample& to) {
  acc.time_ns += to.time_ns - from.time_ns;
  acc.mono_ns += to.mono_ns - from.mono_ns;
  for (const ReportEntry& e : Reports()) {
    for (size_t m = e.first_member; m < e.first_member + e.members; ++m)
      e.report->phases->add(acc.members[m], from.members[m], to.members[m], m);
  }
}

// value −= acc: the gaps taken out of a sample.
void SubGaps(RawSample& value, const RawSample& acc) {
  value.time_ns -= acc.time_ns;
  value.mono_ns -= acc.mono_ns;
  for (const ReportEntry& e : Reports()) {
    for (size_t m = e.first_member; m < e.first_member + e.members; ++m)
      e.report->phases->take(value.members[m], acc.members[m]);
  }
}

// Every row live on both sides of a gap: acc += to − from per counter
// (unsigned: wraps as the counters do); a member's levels are left.
void AddCounterGap(MemberRows& acc, const MemberRows& from, const MemberRows& to, size_t m) {
  const size_t levels = MemberAt(m).levels;
  const size_t counters = to.width > levels ? to.width - levels : 0;
  for (size_t i = 0; i < to.rows(); ++i) {
    if (!to.live(i)) continue;
    size_t f = from.Find(to.names[i], i);
    if (f == MemberRows::npos || !from.live(f)) continue;
    std::span<uint64_t> a = Slot(acc, to.names[i], to.width);
    std::span<const uint64_t> x = from.row(f), y = to.row(i);
    for (size_t k = 0; k < counters && k < a.size() && k < x.size(); ++k) a[k] += y[k] - x[k];
  }
}

// value −= acc, row by row.
void TakeCounterGaps(MemberRows& value, const MemberRows& acc) {
  for (size_t i = 0; i < value.rows(); ++i) {
    size_t a = acc.Find(value.names[i], i);
    if (a == MemberRows::npos) continue;
    std::span<uint64_t> v = value.row(i);
    std::span<const uint64_t> g = acc.row(a);
    for (size_t k = 0; k < v.size() && k < g.size(); ++k) v[k] -= g[k];
  }
}

}  // namespace

const GapRule kCounterGaps = {AddCounterGap, TakeCounterGaps};

ActiveSpan ActiveSpan::StartingPaused(int64_t t_ns) {
  ActiveSpan span;
  span.pending_ = true;
  span.pending_ns_ = t_ns;
  span.has_pauses_ = true;
  return span;
}

void ActiveSpan::Sample(const RawSample& s) {
  if (count_++ == 0) {
    first_ = s;
    if (pending_) paused_ns_ += s.time_ns - pending_ns_;
  } else if (broken_) {
    AddGap(gaps_, last_, s);
    paused_ns_ += s.time_ns - last_.time_ns;
  }
  pending_ = false;
  broken_ = false;
  last_ = s;
}

void ActiveSpan::Break(bool pause_event, int64_t t_ns) {
  if (pause_event && count_ == 0 && !pending_) {  // started paused: paused from here
    pending_ = true;
    pending_ns_ = t_ns;
  }
  broken_ = true;
  if (pause_event) has_pauses_ = true;
}

void ActiveSpan::EndAt(int64_t t_ns) {
  if (pending_) paused_ns_ += t_ns - pending_ns_;
  else if (broken_ && count_ > 0) paused_ns_ += t_ns - last_.time_ns;
  pending_ = false;
}

RawSample ActiveSpan::ActiveEnd() const {
  RawSample end = last_;
  SubGaps(end, gaps_);  // nothing to take out without a gap
  return end;
}

void PhaseWalk::OnSample(const RawSample& s) {
  whole_.Sample(s);
  if (split_) phases_.back().span.Sample(s);
}

void PhaseWalk::OnEvent(const RecordingEvent& e) {
  bool pause = e.kind == "pause";
  if (pause || e.kind == "resume") {
    whole_.Break(pause, e.time_ns);
    if (split_) phases_.back().span.Break(pause, e.time_ns);
  } else if (e.kind == "mark" && split_) {
    Mark(e);
  } else if (e.kind == "scan" && e.scan) {
    Scan(e.scan);
  } else if (e.kind == "end") {
    // Stopped while paused: the time from the pause to the stop is paused
    // time too (no sample follows to close the gap).
    whole_.EndAt(e.time_ns);
    if (split_) phases_.back().span.EndAt(e.time_ns);
  }
}

// A scan follows the instant it belongs to: the start's begins the first
// phase; a mark's ends the phase before and begins the next; the stop's
// ends the last.
void PhaseWalk::Scan(const std::shared_ptr<const ScanEvent>& scan) {
  if (!whole_scans_.begin) whole_scans_.begin = scan;
  else whole_scans_.end = scan;
  if (!split_) return;
  SpanScans& current = phases_.back().scans;
  if (current.begin) {
    current.end = scan;
    return;
  }
  current.begin = scan;
  if (phases_.size() > 1 && !phases_[phases_.size() - 2].scans.end)
    phases_[phases_.size() - 2].scans.end = scan;
}

// The sample at the mark ends this phase and starts the next; a mark in a
// pause splits the paused time.
void PhaseWalk::Mark(const RecordingEvent& e) {
  ActiveSpan& current = phases_.back().span;
  Phase next{e.label, {}};
  if (current.pause_open()) next.span = ActiveSpan::StartingPaused(e.time_ns);
  else if (!current.empty() && !current.in_gap()) next.span.Sample(current.last());
  current.EndAt(e.time_ns);
  phases_.push_back(std::move(next));
}

}  // namespace pm
