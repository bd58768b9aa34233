#include "playback/statistics/use_span.hh"

#include <algorithm>
#include <cmath>

#include "playback/reports/reports.hh"
#include "playback/statistics/use_rules.hh"

namespace pm {

void UseSpan::First() {
  for (Resource& r : resources_) Close(r);
}

void UseSpan::Add(const Pair& p) {
  AddInterval(p.interval, [&p](StatRow& row) {
    for (const ReportEntry& e : Reports())
      if (e.report->stats) e.report->stats(row, p);
  });
}

void UseSpan::AddInterval(double seconds, const std::function<void(StatRow& row)>& values) {
  interval_ = seconds;
  if (interval_ <= 0) return;
  ++intervals_;
  seconds_ += interval_;
  max_interval_ = std::max(max_interval_, interval_);
  values(*this);
  EndInterval();
}

UseSpan::Resource& UseSpan::Find(std::string_view name, size_t rank) {
  for (Resource& r : resources_)
    if (r.name == name) return r;
  resources_.push_back({std::string(name), {}, 0, 0, 0, {}, false, -1, rank});
  std::stable_sort(resources_.begin(), resources_.end(),
                   [](const Resource& a, const Resource& b) { return a.rank < b.rank; });
  for (Resource& r : resources_)
    if (r.name == name) return r;
  return resources_.back();  // not reached
}

UseSpan::Signal& UseSpan::SignalOf(Resource& r, std::string_view label) {
  for (Signal& s : r.signals)
    if (s.shown.label == label) return s;
  r.signals.emplace_back().shown.label = std::string(label);
  return r.signals.back();
}

void UseSpan::Put(const SeriesKey& key, std::string_view unit, bool, double v) {
  const SeriesName n = SplitSeries(Name(key));
  if (std::find(seen_.begin(), seen_.end(), n.a) == seen_.end()) seen_.emplace_back(n.a);
  const UseRule* rule = FindUseRule(n);
  if (!rule || !std::isfinite(v)) return;
  Resource& r = Find(ResourceName(*rule, n), RuleRank(*rule));
  Signal& s = SignalOf(r, rule->label);
  const double threshold = Threshold(*rule, t_);
  if (rule->thr == UseThreshold::kRunQueue) v = std::max(0.0, v - num_core_);
  if (rule->machine && num_core_ > 0) v /= num_core_;
  s.shown.letter = rule->letter;
  s.shown.unit = rule->thr == UseThreshold::kRunQueue ? "tasks" : std::string(unit);
  s.shown.events = rule->events;
  s.shown.saturates = !std::isnan(threshold);
  s.values.Add(v, interval_);
  s.weighted += v * interval_;
  s.weight += interval_;
  s.shown.max = s.values.count() == 1 ? v : std::max(s.shown.max, v);
  s.shown.total += unit == "per interval" ? v : v * interval_;
  s.now = v;
  if (rule->letter == 'U' && rule->thr == UseThreshold::kBusy) r.util = v;
  if (s.shown.saturates && v > threshold) {
    s.over_time += interval_;
    r.hot = true;
  }
}

void UseSpan::Close(Resource& r) {
  if (r.run <= 0) return;
  UseBursts& b = r.bursts;
  b.shortest = b.count == 0 ? r.run : std::min(b.shortest, r.run);
  b.longest = std::max(b.longest, r.run);
  ++b.count;
  r.run = 0;
  r.quiet = 0;
}

// A saturated interval opens a burst or extends the open one over the
// quiet time since its last saturated interval; a quiet stretch as long
// as the gap closes it (gap 0: the first quiet interval does).
void UseSpan::Walk(Resource& r) const {
  if (r.hot) {
    r.saturated_time += interval_;
    r.run += r.quiet + interval_;
    r.quiet = 0;
  } else if (r.run > 0) {
    r.quiet += interval_;
    if (r.quiet >= t_.gap - 1e-9) Close(r);  // 5 x 0.01 s: 0.05 s
  }
}

// A disk's await at low load needs its %util, which comes after it.
void UseSpan::EndInterval() {
  for (Resource& r : resources_) {
    for (Signal& s : r.signals) {
      if (r.util >= 0 && r.util < kLowLoad && std::isfinite(s.now) && IsAwait(s.shown.label)) {
        s.low += s.now * interval_;
        s.low_weight += interval_;
      }
      s.now = StatRow::kNoValue;
    }
    Walk(r);
    r.hot = false;
    r.util = -1;
  }
}

std::vector<UseResource> UseSpan::Results() const {
  std::vector<UseResource> out;
  const double span = seconds_ > 0 ? seconds_ : 1;
  for (Resource r : resources_) {
    Close(r);
    UseResource& u = out.emplace_back();
    u.name = r.name;
    u.saturated = 100.0 * r.saturated_time / span;
    u.bursts = r.bursts;
    u.missing = MissingFor(r.name, seen_);
    for (const Signal& s : r.signals) {
      UseSignal shown = s.shown;
      shown.count = s.values.count();
      shown.mean = s.weight > 0 ? s.weighted / s.weight : 0;
      shown.p99 = s.values.count() ? s.values.NearestRank(99) : 0;
      shown.over = 100.0 * s.over_time / span;
      if (s.low_weight > 0) shown.baseline = s.low / s.low_weight;
      u.signals.push_back(std::move(shown));
    }
  }
  return out;
}

}  // namespace pm
