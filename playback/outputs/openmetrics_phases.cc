#include "playback/outputs/openmetrics_phases.hh"

#include <climits>

#include "playback/outputs/openmetrics_text.hh"

namespace pm {

void PhaseTracker::Sample(int64_t t_ms, const Emit& emit) const {
  if (!cur_.paused) emit(cur_, t_ms, 1);
}

void PhaseTracker::Event(std::string_view kind, std::string_view label, int64_t t_ms,
                         const Emit& emit) {
  bool pause = kind == "pause", resume = kind == "resume", mark = kind == "mark";
  if (!mark && !(pause && !cur_.paused) && !(resume && cur_.paused)) return;
  emit(cur_, t_ms, 0);
  if (mark) cur_.phase = std::string(label);
  else cur_.paused = pause;
  emit(cur_, t_ms, 1);
}

PhaseSeries::PhaseSeries(const std::string& spool_dir) : points_(spool_dir) {}

PhaseSeries::~PhaseSeries() = default;

void PhaseSeries::Spool(const PhaseKey& key, int64_t t_ms, int value) {
  std::string name = key.phase + (key.paused ? '\1' : '\0');
  auto [it, added] = ids_.try_emplace(std::move(name), static_cast<uint32_t>(keys_.size()));
  if (added) keys_.push_back(key);
  points_.Add(Point{t_ms, it->second, value});
}

void PhaseSeries::Sample(int64_t t_ms) {
  tracker_.Sample(t_ms, [this](const PhaseKey& k, int64_t t, int v) { Spool(k, t, v); });
}

void PhaseSeries::Event(const RecordingEvent& e, int64_t t_ms) {
  tracker_.Event(e.kind, e.label, t_ms,
                 [this](const PhaseKey& k, int64_t t, int v) { Spool(k, t, v); });
}

void PhaseSeries::Write(std::string& out, const std::string& common_labels,
                        const std::function<void()>& drain) {
  if (keys_.empty()) return;
  out.append("# TYPE perfmonger_phase_info gauge\n"
             "# HELP perfmonger_phase_info 1 while the recording is in this phase (the label "
             "of the last mark, start before any) and state (recording or paused), 0 when it "
             "leaves it.\n");
  const SeriesSpool<Point>::Sorted sorted = points_.Sort();
  for (size_t id = 0; id < keys_.size(); ++id) {
    std::string prefix = "perfmonger_phase_info{";
    AppendLabel(prefix, "phase", keys_[id].phase);
    prefix.push_back(',');
    AppendLabel(prefix, "state", keys_[id].paused ? "paused" : "recording");
    if (!common_labels.empty()) prefix += "," + common_labels;
    prefix += "} ";
    WriteOne(out, sorted.Of(static_cast<uint32_t>(id)), prefix, drain);
  }
}

// One series' points, in file order. Points at one millisecond collapse
// to the last (the state after), and a point earlier than the one before
// (the wall clock stepped back) is dropped: timestamps within a series
// must increase.
void PhaseSeries::WriteOne(std::string& out, std::span<const Point> points,
                           const std::string& prefix, const std::function<void()>& drain) {
  bool pending = false;
  int64_t pending_t = INT64_MIN;
  int pending_v = 0;
  auto flush = [&] {
    if (!pending) return;
    out.append(prefix);
    out.push_back(pending_v != 0 ? '1' : '0');
    out.push_back(' ');
    AppendTimestampMs(out, pending_t);
    out.push_back('\n');
    pending = false;
    drain();
  };
  for (const Point& p : points) {
    if (pending && p.t_ms == pending_t) {
      pending_v = p.value;
      continue;
    }
    if (p.t_ms < pending_t) continue;
    flush();
    pending = true;
    pending_t = p.t_ms;
    pending_v = p.value;
  }
  flush();
}

}  // namespace pm
