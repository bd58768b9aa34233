#include "playback/reports/field_rates.hh"

#include <array>

#include "playback/outputs/export_csv.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/stat_row.hh"
#include "proto/json.hh"
#include "proto/pgr_collector_spec.hh"

namespace pm {
namespace {

bool Shown(const RateKey& k, const Pair& p, size_t member) {
  return p.options.Recorded(member, k.field);
}

int Digits(const RateKey& k) { return k.kind == RateKind::kPerSecond ? 2 : 0; }

void AppendGroup(std::string& out, const RateGroup& g, const Pair& p, size_t member) {
  bool first = true;
  for (const RateKey& k : g.keys) {
    if (!Shown(k, p, member)) continue;
    if (!first) out.push_back(',');
    first = false;
    AppendJsonKey(out, k.key);
    AppendFixed(out, RateValue(k, p, member), Digits(k));
  }
}

}  // namespace

double RateValue(const RateKey& k, const Pair& p, size_t member) {
  uint64_t a = p.prev.members[member].at(0, k.field), b = p.cur.members[member].at(0, k.field);
  if (k.kind == RateKind::kLevel) return static_cast<double>(b);
  double d = static_cast<double>(CounterDelta(a, b));
  return k.kind == RateKind::kCount ? d : d / p.interval;
}

bool LiveRates(const RateTable& t, const Pair& p, std::string_view part, std::span<double> out) {
  if (!part.empty() || !p.Both(*t.member) || p.options.legacy) return false;
  for (size_t i = 0; i < t.live_keys.size() && i < out.size(); ++i) {
    const RateColumn& c = t.live_keys[i];
    out[i] = Shown(*c.key, p, *t.member) ? RateValue(*c.key, p, *t.member) * c.scale
                                        : __builtin_nan("");
  }
  return true;
}

void PlayRates(std::string& out, const RateTable& t, const Pair& p) {
  if (!p.Both(*t.member) || p.options.legacy) return;
  out.append(",\"").append(t.key).append("\":{");
  for (const RateGroup& g : t.groups) {
    if (g.name.empty()) {
      AppendGroup(out, g, p, *t.member);
      continue;
    }
    if (out.back() != '{') out.push_back(',');
    AppendJsonKey(out, g.name);
    out.push_back('{');
    AppendGroup(out, g, p, *t.member);
    out.push_back('}');
  }
  out.push_back('}');
}

void SummaryJsonRates(std::string& out, const RateTable& t, const Pair& p) {
  if (p.rated()) PlayRates(out, t, p);
}

// * Paging and swapping
//             paged in: 12.00 kB/s
void SummaryRates(std::string& out, const RateTable& t, const Pair& p) {
  if (!p.rated() || !p.Both(*t.member) || p.options.legacy) return;
  out.append("* ").append(t.heading).push_back('\n');
  for (const RateGroup& g : t.groups)
    for (const RateKey& k : g.keys) {
      if (!Shown(k, p, *t.member)) continue;
      out.append(k.label.size() < 20 ? 20 - k.label.size() : 0, ' ');
      out.append(k.label).append(": ");
      AppendFixed(out, RateValue(k, p, *t.member), Digits(k));
      if (!k.unit.empty()) out.append(" ").append(k.unit);
      out.push_back('\n');
    }
  out.push_back('\n');
}

// A level is read at every sample (the span's first too: a pair of one
// instant), a rate only over a pair that has an interval.
void StatsRates(StatRow& row, const RateTable& t, const Pair& p) {
  if (!p.cur.members[*t.member].has || p.options.legacy) return;
  const bool rates = p.rated() && p.Both(*t.member);
  for (const RateGroup& g : t.groups)
    for (const RateKey& k : g.keys) {
      if (!Shown(k, p, *t.member)) continue;
      if (k.kind == RateKind::kLevel)
        row.Level(t.key, g.name, k.key, k.unit, RateValue(k, p, *t.member));
      else if (rates)
        row.Rate(t.key, g.name, k.key, k.unit.empty() ? "per interval" : k.unit,
                 RateValue(k, p, *t.member));
    }
}

void CsvRates(CsvRow& row, const RateTable& t, const Pair& p) {
  if (!p.Both(*t.member) || p.options.legacy) return;
  for (const RateGroup& g : t.groups) {
    std::array<std::string_view, 32> names;  // more than any group's keys
    size_t n = 0;
    for (const RateKey& k : g.keys)
      if (Shown(k, p, *t.member)) names[n++] = k.key;
    if (n == 0) continue;
    row.Group(t.key, g.name, std::span(names).first(n));
    for (const RateKey& k : g.keys) {
      if (!Shown(k, p, *t.member)) continue;
      double v = RateValue(k, p, *t.member);
      if (k.kind == RateKind::kPerSecond) row.Fixed(v, 2);
      else row.Int(static_cast<int64_t>(v));
    }
  }
}

void PlotRates(PlotLines& out, const RateTable& t, const Pair& p) {
  if (!p.Both(*t.member) || p.options.legacy) return;
  std::string& line = out.Line(out.Block(0, 0, "system", std::string(t.plot_block)));
  for (const RateKey* k : t.plotted) PlotLines::Col(line, RateValue(*k, p, *t.member));
  line.push_back('\n');
}

void RateFamilies(MetricFamilies& out, const RateTable& t) {
  for (std::string_view field : MemberAt(*t.member).fields) {
    std::string name;
    name.append(t.metric_prefix).append(field);
    std::string help = "/proc's ";
    help.append(field).push_back('.');
    out.Gauge(std::move(name), "", std::move(help));
  }
}

// Series of the recorded fields only, created in field order: their ids
// follow each other.
void RateSeries(MetricRow& row, const RateTable& t, const RawSample& s) {
  const MemberRows& m = s.members[*t.member];
  if (!m.has || row.info().legacy()) return;
  const RecordingInfo& info = row.info();
  const uint32_t first = row.Block("", [&] {
    uint32_t id = MetricRow::kLeftOut;
    for (uint32_t f = 0; f < m.width; ++f)
      if (info.Recorded(*t.member, f)) {
        uint32_t s_id = row.Add(f, Scale::kOne, "");
        if (id == MetricRow::kLeftOut) id = s_id;
      }
    return id;
  });
  if (first == MetricRow::kLeftOut) return;
  uint32_t k = 0;
  for (size_t f = 0; f < m.width; ++f)
    if (info.Recorded(*t.member, f)) row.Put(first + k++, m.at(0, f));
}

}  // namespace pm
