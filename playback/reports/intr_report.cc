// The intr collector (member "intr": /proc/interrupts, one row per source,
// one count per CPU) in every output:
//   play     "intr":{"core_dev_intr":[per CPU],"core_sys_intr":[per CPU]}:
//            interrupts per second of the numbered rows (devices) and of
//            the named ones (NMI, LOC, ...), PerfMonger's
//   summary  with --all, "Average INTERRUPTS" per CPU; --json its "intr"
//   csv      intr.core_dev_intr.<cpu>, intr.core_sys_intr.<cpu>
//   metrics  perfmonger_interrupts_total{cpu,irq}: node_exporter's
//            node_interrupts_total has info/devices labels this lacks
//   plot     intr.dat (ours): elapsed_time device/s system/s, one block per
//            CPU then "total"; chart intr
//   live     int/s (all CPUs) and csw/s (the cpu collector's ctxt), as
//            dstat's system group
#include <cmath>
#include <string>
#include <vector>

#include "playback/reports/cpu_brief.hh"

#include "playback/outputs/export_csv.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/reports/play_text.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/stat_row.hh"
#include "proto/pgr_collector_spec.hh"

namespace pm {
namespace {

// summary's text block starts "* " and it (Report::heading).
constexpr std::string_view kHeading = "Average INTERRUPTS";

const size_t kIntr = MemberIndexOf("intr");

// A device's interrupt (a number) rather than the system's (NMI, LOC).
bool IsNumbered(std::string_view irq) {
  return !irq.empty() && irq.find_first_not_of("0123456789") == std::string_view::npos;
}

struct IntrRates {                // interrupts per second, per CPU
  std::vector<double> device;     // numbered rows
  std::vector<double> system;     // named rows (NMI, LOC, ...)
};

// The rows live in both samples, matched by irq.
IntrRates Rates(const Pair& p) {
  const MemberRows &prev = p.prev.members[kIntr], &cur = p.cur.members[kIntr];
  IntrRates r{std::vector<double>(cur.width, 0.0), std::vector<double>(cur.width, 0.0)};
  for (size_t i = 0; i < cur.rows(); ++i) {
    size_t a = prev.Find(cur.names[i], i);
    if (!cur.live(i) || a == MemberRows::npos || !prev.live(a)) continue;
    std::vector<double>& sums = IsNumbered(cur.names[i]) ? r.device : r.system;
    std::span<const uint64_t> b = cur.row(i), x = prev.row(a);
    for (size_t c = 0; c < b.size() && c < x.size(); ++c)
      sums[c] += static_cast<double>(CounterDelta(x[c], b[c])) / p.interval;
  }
  return r;
}

// summary --stats: all CPUs' device and system interrupts per second.
void Stats(StatRow& row, const Pair& p) {
  if (!p.rated() || !p.Both(kIntr)) return;
  IntrRates r = Rates(p);
  double device = 0, system = 0;
  for (double v : r.device) device += v;
  for (double v : r.system) system += v;
  row.Rate("intr", "all", "device", "/s", device);
  row.Rate("intr", "all", "system", "/s", system);
}

void Play(std::string& out, const Pair& p) {
  if (!p.Both(kIntr)) return;
  IntrRates r = Rates(p);
  out.append(",\"intr\":{\"core_dev_intr\":");
  AppendDoubles(out, r.device);
  out.append(",\"core_sys_intr\":");
  AppendDoubles(out, r.system);
  out.push_back('}');
}

// "%12s %12.2f %12.2f"
void Row(std::string& out, std::string_view label, double device, double system) {
  auto column = [&out](std::string_view text) {
    if (text.size() < 12) out.append(12 - text.size(), ' ');
    out.append(text);
  };
  column(label);
  for (double v : {device, system}) {
    std::string text;
    AppendFixed(text, v, 2);
    out.push_back(' ');
    column(text);
  }
  out.push_back('\n');
}

// * Average INTERRUPTS (/s)
//          CPU       device       system
//            0        12.34      1000.00
//        total  ...              (beyond PerfMonger's summary: --all)
void SummaryText(std::string& out, const Pair& p) {
  if (!p.options.all || !p.rated() || !p.Both(kIntr)) return;
  IntrRates r = Rates(p);
  out.append("* ").append(kHeading).append(" (/s)\n         CPU       device       system\n");
  double device = 0, system = 0;
  for (size_t c = 0; c < r.device.size(); ++c) {
    Row(out, std::to_string(c), r.device[c], r.system[c]);
    device += r.device[c];
    system += r.system[c];
  }
  if (r.device.size() > 1) Row(out, "total", device, system);
  out.push_back('\n');
}

void Csv(CsvRow& row, const Pair& p) {
  if (!p.Both(kIntr)) return;
  IntrRates r = Rates(p);
  row.Indexed("intr", "core_dev_intr", r.device.size());
  for (double v : r.device) row.Fixed(v, 2);
  row.Indexed("intr", "core_sys_intr", r.system.size());
  for (double v : r.system) row.Fixed(v, 2);
}

void Families(MetricFamilies& out) {
  out.Counter("perfmonger_interrupts", "", "Interrupts per CPU and /proc/interrupts row (irq).");
}

void Series(MetricRow& row, const RawSample& s) {
  const MemberRows& intr = s.members[kIntr];
  for (size_t r = 0; intr.has && r < intr.rows(); ++r) {
    if (!intr.live(r)) continue;
    uint32_t base = row.Block(intr.names[r], [&] {
      uint32_t first = MetricRow::kLeftOut;
      for (size_t c = 0; c < intr.width; ++c) {
        std::string labels;
        AppendLabel(labels, "cpu", std::to_string(c));
        labels.push_back(',');
        AppendLabel(labels, "irq", intr.names[r]);
        uint32_t id = row.Add(0, Scale::kOne, labels);
        if (c == 0) first = id;
      }
      return first;
    });
    if (base != MetricRow::kLeftOut) row.Put(base, intr.row(r));
  }
}

constexpr std::string_view kLabels[] = {"cpu", "irq"};
constexpr MetricsSlot kMetrics = {Families, kLabels, Series};

constexpr PlotFileSpec kFiles[] = {{"intr.dat", "# elapsed_time\tdevice/s\tsystem/s\n"}};

void PlotRow(PlotLines& out, PlotBlock& block, double device, double system) {
  std::string& line = out.Line(block);
  PlotLines::Col(line, device);
  PlotLines::Col(line, system);
  line.push_back('\n');
}

void PlotPair(PlotLines& out, const Pair& p) {
  if (!p.Both(kIntr)) return;
  IntrRates r = Rates(p);
  double device = 0, system = 0;
  for (size_t c = 0; c < r.device.size(); ++c) {
    std::string name = std::to_string(c);
    PlotRow(out, out.Block(0, c, "cpu" + name, "# cpu: " + name), r.device[c], r.system[c]);
    device += r.device[c];
    system += r.system[c];
  }
  PlotRow(out, out.Block(0, r.device.size(), "total", "# cpu: total"), device, system);
}

constexpr ChartLine kLines[] = {{"device", "$2", false}, {"system", "$3", true}};
constexpr ChartSpec kCharts[] = {
    {.name = "intr", .title = "Interrupts", .ylabel = "interrupts/s", .lines = kLines,
     .total = TotalLine::kWhenSeveral},
};
constexpr PlotSlot kPlot = {kFiles, PlotPair, kCharts};

// live: dstat's system group: interrupts per second on every CPU (when
// recorded, --record-intr) and context switches per second (the cpu
// collector's, sar -w's cswch/s).
constexpr LiveColumn kLiveColumns[] = {{"int", 5, LiveUnit::kCount},
                                       {"csw", 5, LiveUnit::kCount}};

bool LiveValues(const Pair& p, std::string_view part, std::span<double> out) {
  if (!part.empty()) return false;
  out[0] = std::nan("");
  if (p.Both(kIntr)) {
    IntrRates r = Rates(p);
    out[0] = 0;
    for (double v : r.device) out[0] += v;
    for (double v : r.system) out[0] += v;
  }
  out[1] = ContextSwitchesPerSecond(p);
  return true;
}
constexpr LiveSlot kLive = {"intr", kLiveColumns, nullptr, LiveValues};

}  // namespace

extern const Report kIntrReport;
constexpr Report kIntrReport = {
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
