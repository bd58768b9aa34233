// The pressure collector (member "pressure": /proc/pressure/*, a row per
// line "RESOURCE.some|full", the cumulative stall time in µs) in every
// output, as the percent of the interval in which some (or all: "full")
// non-idle tasks were stalled on the resource; a line gone from its file
// (or a pair across it) is null:
//   play     "pressure":{"cpu":{"some":12.34,"full":0.00},"io":{...},...}
//   summary  "Pressure stall (% of the time)"; --json its "pressure"
//   csv      pressure.<resource>.<some|full>
//   metrics  node_exporter's node_pressure_<resource>_{waiting,stalled}_seconds_total
//            (some: waiting, full: stalled)
//   plot     pressure.dat: elapsed_time %stalled, a block per line;
//            chart pressure
#include <algorithm>
#include <cmath>

#include "playback/outputs/export_csv.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/stat_row.hh"
#include "playback/reports/report.hh"
#include "proto/json.hh"
#include "proto/pgr_collector_spec.hh"

namespace pm {
namespace {

// summary's text block starts "* " and it (Report::heading).
constexpr std::string_view kHeading = "Pressure stall (% of the time)";

const size_t kMember = MemberIndexOf("pressure");

// "cpu.some" -> "cpu", "some".
std::pair<std::string_view, std::string_view> Split(std::string_view row) {
  size_t dot = row.rfind('.');
  if (dot == std::string_view::npos) return {row, ""};
  return {row.substr(0, dot), row.substr(dot + 1)};
}

// A share of the interval, so at most 100: the stall counters are read a
// little after the sample's stamp, later still on a busy machine, and over
// a short interval (a `sample` command's) that lag can exceed the stamps'
// distance.
double Percent(const RowDelta& d, double seconds) {
  return seconds > 0 ? std::min(d[0] / 1e6 / seconds * 100.0, 100.0) : 0.0;
}

// {"cpu":{"some":..,"full":..},...}: rows of one resource are adjacent.
void Object(std::string& out, const Pair& p) {
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  std::string_view open;
  out.push_back('{');
  for (size_t i = 0; i < cur.rows(); ++i) {
    auto [resource, line] = Split(cur.names[i]);
    if (resource != open) {
      if (!open.empty()) out.append("},");
      AppendJsonKey(out, resource);
      out.push_back('{');
      open = resource;
    } else {
      out.push_back(',');
    }
    AppendJsonKey(out, line);
    RowDelta d = DeltaOf(prev, cur, i, 0);
    if (d.present) AppendFixed(out, Percent(d, p.interval), 2);
    else out.append("null");
  }
  if (!open.empty()) out.push_back('}');
  out.push_back('}');
}

void Play(std::string& out, const Pair& p) {
  if (!p.Both(kMember)) return;
  out.append(",\"pressure\":");
  Object(out, p);
}

// * Pressure stall (% of the time)
//         cpu some: 12.34 %
void SummaryText(std::string& out, const Pair& p) {
  if (!p.rated() || !p.Both(kMember)) return;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  out.append("* ").append(kHeading).push_back('\n');
  for (size_t i = 0; i < cur.rows(); ++i) {
    auto [resource, line] = Split(cur.names[i]);
    std::string label(resource);
    label.append(" ").append(line);
    if (label.size() < 16) out.append(16 - label.size(), ' ');
    out.append(label).append(": ");
    RowDelta d = DeltaOf(prev, cur, i, 0);
    if (d.present) {
      AppendFixed(out, Percent(d, p.interval), 2);
      out.append(" %\n");
    } else {
      out.append("-\n");
    }
  }
  out.push_back('\n');
}

// summary --stats: pressure.<resource>.<some|full>, % of each interval.
void Stats(StatRow& row, const Pair& p) {
  if (!p.rated() || !p.Both(kMember)) return;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  for (size_t i = 0; i < cur.rows(); ++i) {
    RowDelta d = DeltaOf(prev, cur, i, 0);
    auto [resource, line] = Split(cur.names[i]);
    if (d.present) row.Rate("pressure", resource, line, "%", Percent(d, p.interval));
  }
}

void Csv(CsvRow& row, const Pair& p) {
  if (!p.Both(kMember)) return;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  for (size_t i = 0; i < cur.rows(); ++i) {
    auto [resource, line] = Split(cur.names[i]);
    row.Group("pressure", resource, std::span<const std::string_view>(&line, 1));
    RowDelta d = DeltaOf(prev, cur, i, 0);
    if (d.present) row.Fixed(Percent(d, p.interval), 2);
  }
}

// node_exporter's names: some is "waiting", full "stalled". A line the
// kernel may add later (another resource) is not exported until it has a
// name here.
struct Family {
  std::string_view row, name, help;
};
constexpr Family kFamilies[] = {
    {"cpu.some", "node_pressure_cpu_waiting", "Total time in seconds that processes have waited for CPU time"},
    {"cpu.full", "node_pressure_cpu_stalled", "Total time in seconds no process could make progress due to CPU congestion"},
    {"io.some", "node_pressure_io_waiting", "Total time in seconds that processes have waited due to IO congestion"},
    {"io.full", "node_pressure_io_stalled", "Total time in seconds no process could make progress due to IO congestion"},
    {"memory.some", "node_pressure_memory_waiting", "Total time in seconds that processes have waited for memory"},
    {"memory.full", "node_pressure_memory_stalled", "Total time in seconds no process could make progress due to memory congestion"},
    {"irq.full", "node_pressure_irq_stalled", "Total time in seconds no process could make progress due to IRQ congestion"},
};

void Families(MetricFamilies& out) {
  for (const Family& f : kFamilies)
    out.Counter(std::string(f.name) + "_seconds", "seconds", std::string(f.help));
}

void Series(MetricRow& row, const RawSample& s) {
  const MemberRows& m = s.members[kMember];
  for (size_t i = 0; m.has && i < m.rows(); ++i) {
    if (!m.live(i)) continue;
    uint32_t id = row.Block(m.names[i], [&] {
      for (uint32_t f = 0; f < std::size(kFamilies); ++f)
        if (kFamilies[f].row == m.names[i]) return row.Add(f, Scale::kPerMillion, "");
      return MetricRow::kLeftOut;
    });
    if (id != MetricRow::kLeftOut) row.Put(id, m.at(i, 0));
  }
}

constexpr MetricsSlot kMetrics = {Families, {}, Series};

constexpr PlotFileSpec kFiles[] = {{"pressure.dat", "# elapsed_time\t%stalled\n"}};

void PlotPair(PlotLines& out, const Pair& p) {
  if (!p.Both(kMember)) return;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  for (size_t i = 0; i < cur.rows(); ++i) {
    PlotBlock& block = out.Block(0, i, cur.names[i], "# pressure: " + cur.names[i]);
    RowDelta d = DeltaOf(prev, cur, i, 0);
    if (!d.present) continue;
    std::string& line = out.Line(block);
    PlotLines::Col(line, Percent(d, p.interval));
    line.push_back('\n');
  }
}

constexpr ChartLine kLines[] = {{"", "$2", false}};
constexpr ChartSpec kCharts[] = {
    {.name = "pressure", .title = "Pressure stall (% of the time)",
     .ylabel = "% of the time stalled", .lines = kLines},
};
constexpr PlotSlot kPlot = {kFiles, PlotPair, kCharts};

// live: the share of the interval some tasks stalled on each resource.
constexpr LiveColumn kLiveColumns[] = {{"cpu", 3, LiveUnit::kPercent},
                                       {"io", 3, LiveUnit::kPercent},
                                       {"mem", 3, LiveUnit::kPercent}};

bool LiveValues(const Pair& p, std::string_view part, std::span<double> out) {
  if (!part.empty() || !p.Both(kMember)) return false;
  size_t c = 0;
  for (std::string_view row : {"cpu.some", "io.some", "memory.some"}) {
    const RowDelta d = NamedDelta(p, kMember, row, 0);
    out[c++] = d.present ? Percent(d, p.interval) : std::nan("");
  }
  return true;
}
constexpr LiveSlot kLive = {"pressure", kLiveColumns, nullptr, LiveValues};

}  // namespace

extern const Report kPressureReport;
constexpr Report kPressureReport = {
    .play = Play,
    .summary_text = SummaryText,
    .heading = kHeading,
    .summary_json = WhenRated<Play>,  // play's object over the span
    .phases = &kCounterGaps,
    .stats = Stats,
    .csv = Csv,
    .openmetrics = &kMetrics,
    .plot = &kPlot,
    .live = &kLive,
};

}  // namespace pm
