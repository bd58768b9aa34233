#include "playback/statistics/span_stats.hh"

#include <algorithm>
#include <cmath>

#include "playback/reports/rates.hh"
#include "playback/reports/reports.hh"
#include "proto/json.hh"
#include "proto/pgr_format.hh"
#include "proto/text.hh"

namespace pm {
namespace {

void Pad(std::string& out, size_t used, size_t width) {
  if (used < width) out.append(width - used, ' ');
}

// `v` right-aligned in `width` columns, 2 decimals.
void Column(std::string& out, double v, size_t width) {
  std::string cell;
  AppendFixed(cell, v, 2);
  Pad(out, cell.size(), width);
  out.append(cell);
}

}  // namespace

void SpanStats::First(const RawSample& s, const ReportOptions& options, uint64_t layout) {
  levels_only_ = true;
  Walk(Pair(s, s, origin_, options), layout);
  levels_only_ = false;
}

void SpanStats::Add(const Pair& p, uint64_t layout) {
  ++intervals_;
  Walk(p, layout);
}

void SpanStats::Walk(const Pair& p, uint64_t layout) {
  layout_ = layout;
  interval_ = levels_only_ ? 0.0 : p.interval;
  time_ns_ = p.cur.time_ns;
  elapsed_ = p.elapsed_time;
  next_ = first_;
  last_ = kNone;
  for (report_ = 0; report_ < Reports().size(); ++report_) {
    const Report& r = *Reports()[report_].report;
    if (r.stats) r.stats(*this, p);
  }
}

namespace {

// Parts at the same addresses (stat_row.hh: literals and the samples'
// names, which KeptSample's layout vouches for).
bool SameParts(const SeriesKey& x, const SeriesKey& y) {
  return x.a.data() == y.a.data() && x.a.size() == y.a.size() && x.b.data() == y.b.data() &&
         x.b.size() == y.b.size() && x.field.data() == y.field.data() &&
         x.field.size() == y.field.size();
}

}  // namespace

inline SpanStats::Series& SpanStats::Found(size_t i) {
  last_ = i;
  next_ = series_[i].follow;
  return series_[i];
}

// Found by its name: its parts, and its place after the last one found.
SpanStats::Series& SpanStats::Seen(size_t i, const SeriesKey& key) {
  series_[i].seen = key;
  series_[i].seen_in = layout_;
  (last_ == kNone ? first_ : series_[last_].follow) = i;
  return Found(i);
}

// In a layout seen before, the series the parts were given for then, the
// name unread (inlined in Put: it is most values' whole search).
SpanStats::Series& SpanStats::Find(const SeriesKey& key, std::string_view unit, bool level) {
  if (layout_ != 0 && next_ < series_.size()) {
    const Series& s = series_[next_];
    if (s.seen_in == layout_ && SameParts(s.seen, key)) return Found(next_);
  }
  return Resolve(key, unit, level);
}

// By the name: the next series' first, then any's; else a new series.
SpanStats::Series& SpanStats::Resolve(const SeriesKey& key, std::string_view unit, bool level) {
  if (next_ < series_.size() && key.Is(NameOf(next_))) return Seen(next_, key);
  const std::string_view name = Name(key);
  auto [it, added] = index_.try_emplace(std::string(name), series_.size());
  if (added) {
    name_at_.emplace_back(name_bytes_.size(), name.size());
    name_bytes_.append(name);
    series_.push_back({std::string(name), std::string(unit), level, report_, {}, 0, 0, 0, 0});
    if (keep_batches_) series_.back().batches = std::make_shared<BatchMeans>();
  }
  return Seen(it->second, key);
}

void SpanStats::Put(const SeriesKey& key, std::string_view unit, bool level, double v) {
  Series& s = Find(key, unit, level);
  if (!std::isfinite(v) || (levels_only_ && !level)) return;
  if (s.values.count() == 0 || v > s.max) {
    s.max = v;
    s.max_ns = time_ns_;
    s.max_elapsed = elapsed_;
  }
  const double weight = level ? 1.0 : interval_;
  s.values.Add(v, weight);
  if (s.batches) s.batches->Add(v, weight);
  s.weighted += v * interval_;
  s.weight += interval_;
}

std::vector<SeriesStats> SpanStats::Results() const {
  std::vector<const Series*> order;
  for (const Series& s : series_) order.push_back(&s);
  std::stable_sort(order.begin(), order.end(),
                   [](const Series* a, const Series* b) { return a->report < b->report; });
  std::vector<SeriesStats> out;
  for (const Series* one : order) {
    const Series& s = *one;
    const QuantileStore& v = s.values;
    if (v.count() == 0) continue;
    SeriesStats r{s.name, s.unit, s.level, v.count()};
    r.mean = s.level || s.weight <= 0 ? v.sum() / static_cast<double>(v.count())
                                      : s.weighted / s.weight;
    r.min = v.min();
    r.max = s.max;
    r.max_ns = s.max_ns;
    r.max_elapsed = s.max_elapsed;
    r.p50 = v.NearestRank(50);
    r.p95 = v.NearestRank(95);
    r.p99 = v.NearestRank(99);
    r.exact = v.exact();
    if (!s.level) {
      r.total = s.weighted;
      r.seconds = s.weight;
    }
    r.batches = s.batches;
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

// The block's title: how many intervals, and what the grid left out.
void AppendStatsTitle(std::string& out, const SpanStats& stats) {
  out.append("* Statistics over ");
  AppendUint(out, stats.intervals());
  out.append(stats.intervals() == 1 ? " interval" : " intervals");
  if (stats.grid()) {
    out.append(" of the sampling grid, ");
    AppendUint(out, stats.left_out());
    out.append(stats.left_out() == 1 ? " sample" : " samples");
    out.append(" of marks, pauses and the stop left out\n ");
  }
}

// One series' row, its name and unit padded to the columns' widths.
void AppendStatsRow(std::string& out, const SeriesStats& s, size_t name_width,
                    size_t unit_width) {
  out.append("  ");
  AppendPrintable(out, s.name);  // a cgroup's or a device's name as recorded
  Pad(out, s.name.size(), name_width + 2);
  out.append(s.unit);
  Pad(out, s.unit.size(), unit_width);
  for (double v : {s.mean, s.min, s.max}) Column(out, v, 12);
  std::string at;
  AppendFixed(at, s.max_elapsed, 3);
  Pad(out, at.size(), 12);
  out.append(at);
  for (double v : {s.p50, s.p95, s.p99}) Column(out, v, 12);
  out.push_back('\n');
}

}  // namespace

void AppendStatsText(std::string& out, const SpanStats& stats) {
  if (stats.intervals() == 0) return;
  const std::vector<SeriesStats> all = stats.Results();
  size_t name_width = 6, unit_width = 4;
  for (const SeriesStats& s : all) {
    name_width = std::max(name_width, s.name.size());
    unit_width = std::max(unit_width, s.unit.size());
  }
  AppendStatsTitle(out, stats);
  bool exact = std::all_of(all.begin(), all.end(), [](const SeriesStats& s) { return s.exact; });
  out.append(" (rates time-weighted; p50/p95/p99 nearest rank");
  if (!exact) {
    out.append(" within ");
    AppendFixed(out, QuantileStore::kRelativeError * 100, 1);
    out.append(" %");
  }
  out.append(")\n  series");
  Pad(out, 6, name_width + 2);
  out.append("unit");
  Pad(out, 4, unit_width);
  out.append("        mean         min         max  max at (s)         p50         p95"
             "         p99\n");
  for (const SeriesStats& s : all) AppendStatsRow(out, s, name_width, unit_width);
  out.push_back('\n');
}

void AppendStatsJson(std::string& out, const SpanStats& stats) {
  out.append(",\"stats\":");
  JsonObjectWriter o(out);
  o.Uint("intervals", stats.intervals());
  if (stats.grid()) o.Bool("grid", true).Uint("left_out", stats.left_out());
  JsonObjectWriter series(o.Key("series"));
  for (const SeriesStats& s : stats.Results()) {
    JsonObjectWriter one(series.Key(s.name));
    one.Str("unit", s.unit).Str("kind", s.level ? "level" : "rate").Uint("count", s.count);
    AppendFixed(one.Key("mean"), s.mean, 3);
    AppendFixed(one.Key("min"), s.min, 3);
    AppendFixed(one.Key("max"), s.max, 3);
    AppendFixed(one.Key("max_elapsed"), s.max_elapsed, 3);
    one.Str("max_time", FormatRfc3339(s.max_ns));
    AppendFixed(one.Key("p50"), s.p50, 3);
    AppendFixed(one.Key("p95"), s.p95, 3);
    AppendFixed(one.Key("p99"), s.p99, 3);
    if (!s.exact) AppendFixed(one.Key("percentile_error"), QuantileStore::kRelativeError, 3);
    one.Close();
  }
  series.Close();
  o.Close();
}

}  // namespace pm
