// The load collector (member "load": /proc/loadavg's averages ×100,
// runnable/threads, /proc/stat's procs_running and procs_blocked; all
// levels, so each output shows the later sample) in every output:
//   play     "load":{"load1":0.52,"load5":..,"load15":..,"runnable":N,
//            "threads":N,"procs_running":N,"procs_blocked":N}
//   summary  "Load (last sample)"; --json its "load"
//   csv      load.<key>
//   metrics  node_load1, node_load5, node_load15, node_procs_running,
//            node_procs_blocked (gauges)
//   plot     load.dat: elapsed_time load1 load5 load15 procs_running
//            procs_blocked; chart load
#include <array>
#include <string>

#include "playback/outputs/export_csv.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/stat_row.hh"
#include "playback/reports/report.hh"
#include "proto/json.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/load.hh"

namespace pm {
namespace {

// summary's text block starts "* " and it (Report::heading).
constexpr std::string_view kHeading = "Load (last sample)";

const size_t kMember = MemberIndexOf("load");
enum LoadField { kLoad1, kLoad5, kLoad15, kRunnable, kThreads, kRunning, kBlocked };
static_assert(kLoadFields[kBlocked] == "procs_blocked" && kLoadFields[kRunnable] == "runnable");

constexpr std::string_view kKeys[] = {"load1",   "load5",         "load15",       "runnable",
                                      "threads", "procs_running", "procs_blocked"};
static_assert(std::size(kKeys) == kLoadFields.size());

double Average(std::span<const uint64_t> v, size_t f) { return static_cast<double>(v[f]) / 100.0; }

void Play(std::string& out, const Pair& p) {
  const MemberRows& m = p.cur.members[kMember];
  if (!m.has) return;
  std::span<const uint64_t> v = m.row(0);
  out.append(",\"load\":{");
  for (size_t f = 0; f < kLoadFields.size(); ++f) {
    if (f != 0) out.push_back(',');
    AppendJsonKey(out, kKeys[f]);
    if (f <= kLoad15) AppendFixed(out, Average(v, f), 2);
    else AppendUint(out, v[f]);
  }
  out.push_back('}');
}

// * Load (last sample)
//     load average: 0.52, 0.58, 0.59
//        run queue: 2 running, 0 blocked, 1234 threads
void SummaryText(std::string& out, const Pair& p) {
  const MemberRows& m = p.cur.members[kMember];
  if (!m.has) return;
  std::span<const uint64_t> v = m.row(0);
  out.append("* ").append(kHeading).append("\n    load average: ");
  for (size_t f = kLoad1; f <= kLoad15; ++f) {
    if (f != kLoad1) out.append(", ");
    AppendFixed(out, Average(v, f), 2);
  }
  out.append("\n       run queue: ");
  AppendUint(out, v[kRunning]);
  out.append(" running, ");
  AppendUint(out, v[kBlocked]);
  out.append(" blocked, ");
  AppendUint(out, v[kThreads]);
  out.append(" threads\n\n");
}

// summary --stats: each sample's load averages and run queue.
void Stats(StatRow& row, const Pair& p) {
  const MemberRows& m = p.cur.members[kMember];
  if (!m.has) return;
  std::span<const uint64_t> v = m.row(0);
  for (size_t f = kLoad1; f <= kLoad15; ++f) row.Level("load", "", kKeys[f], "tasks", Average(v, f));
  row.Level("load", "", kKeys[kRunning], "tasks", static_cast<double>(v[kRunning]));
  row.Level("load", "", kKeys[kBlocked], "tasks", static_cast<double>(v[kBlocked]));
}

void Csv(CsvRow& row, const Pair& p) {
  const MemberRows& m = p.cur.members[kMember];
  if (!m.has) return;
  std::span<const uint64_t> v = m.row(0);
  row.Group("load", "", kKeys);
  for (size_t f = 0; f < kLoadFields.size(); ++f) {
    if (f <= kLoad15) row.Fixed(Average(v, f), 2);
    else row.Int(static_cast<int64_t>(v[f]));
  }
}

// node_exporter's loadavg and stat collectors' gauges, and the fields they
// show (the member's other fields, runnable and threads, it has not).
constexpr FieldFamily kFamilies[] = {
    {"node_load1", false, "", "1m load average.", Scale::kPerHundred},
    {"node_load5", false, "", "5m load average.", Scale::kPerHundred},
    {"node_load15", false, "", "15m load average.", Scale::kPerHundred},
    {"node_procs_running", false, "", "Number of processes in runnable state.", Scale::kOne},
    {"node_procs_blocked", false, "", "Number of processes blocked waiting for I/O to complete.",
     Scale::kOne},
};
constexpr LoadField kFamilyFields[] = {kLoad1, kLoad5, kLoad15, kRunning, kBlocked};
static_assert(std::size(kFamilyFields) == std::size(kFamilies));

void Families(MetricFamilies& out) { out.Declare(kFamilies); }

void Series(MetricRow& row, const RawSample& s) {
  const MemberRows& m = s.members[kMember];
  if (!m.has) return;
  const uint32_t first = row.Block("", [&] { return row.Add(kFamilies, 0, ""); });
  for (uint32_t f = 0; f < std::size(kFamilies); ++f) row.Put(first + f, m.at(0, kFamilyFields[f]));
}

constexpr MetricsSlot kMetrics = {Families, {}, Series};

constexpr PlotFileSpec kFiles[] = {
    {"load.dat", "# elapsed_time\tload1\tload5\tload15\tprocs_running\tprocs_blocked\n"}};

void PlotPair(PlotLines& out, const Pair& p) {
  const MemberRows& m = p.cur.members[kMember];
  if (!m.has) return;
  std::span<const uint64_t> v = m.row(0);
  std::string& line = out.Line(out.Block(0, 0, "system", "# load"));
  for (size_t f = kLoad1; f <= kLoad15; ++f) PlotLines::Col(line, Average(v, f));
  PlotLines::Col(line, static_cast<double>(v[kRunning]));
  PlotLines::Col(line, static_cast<double>(v[kBlocked]));
  line.push_back('\n');
}

// The averages solid, the run queue dashed; its running tasks count the
// recorder, running as it reads /proc (sar's runq-sz takes its reader off).
constexpr ChartLine kLines[] = {{"load1", "$2"},          {"load5", "$3"},
                                {"load15", "$4"},         {"running (recorder too)", "$5", true},
                                {"blocked", "$6", true}};
constexpr ChartSpec kCharts[] = {
    {.name = "load", .title = "Load average and run queue", .ylabel = "tasks",
     .lines = kLines},
};
constexpr PlotSlot kPlot = {kFiles, PlotPair, kCharts};

// live: the three averages of the later sample.
constexpr LiveColumn kLiveColumns[] = {{"1m", 4, LiveUnit::kFixed},
                                       {"5m", 4, LiveUnit::kFixed},
                                       {"15m", 4, LiveUnit::kFixed}};

bool LiveValues(const Pair& p, std::string_view part, std::span<double> out) {
  const MemberRows& m = p.cur.members[kMember];
  if (!part.empty() || !m.has || m.rows() == 0) return false;
  for (size_t f = kLoad1; f <= kLoad15; ++f) out[f] = Average(m.row(0), f);
  return true;
}
constexpr LiveSlot kLive = {"load avg", kLiveColumns, nullptr, LiveValues};

}  // namespace

extern const Report kLoadReport;
constexpr Report kLoadReport = {
    .play = Play,
    .summary_text = SummaryText,
    .heading = kHeading,
    .summary_json = Play,  // the last sample's, as play writes it
    .phases = &kCounterGaps,
    .stats = Stats,
    .csv = Csv,
    .openmetrics = &kMetrics,
    .plot = &kPlot,
    .live = &kLive,
};

}  // namespace pm
