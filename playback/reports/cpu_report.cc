// The cpu collector (members "cpu": the aggregate line and each core of
// /proc/stat, in jiffies; "proc": ctxt and processes; "cpu_fine": the
// finer CPU time, pgr(5)) in every output, its arithmetic in cpu_usage.cc
// (cpu_report.hh says which):
//   play     "cpu":{"num_core":N,"all":{usr nice sys idle iowait hardirq
//            softirq steal guest guestnice},"cores":[{..},...]}: for a
//            PerfMonger recording its usage functions
//            (core/subsystem/usage.go) operation for operation, so every
//            %.2f rounds the same; every field null where a native pair
//            measured nothing
//            "proc":{"cswchps","forkps"}: sar -w's cswch/s and proc/s (not
//            for a legacy recording: PerfMonger had no such key)
//   summary  PerfMonger's "Average CPU usage" block (a native recording's
//            ends with the CPU time's source, notes a span shorter than its
//            resolution, says "not measured" for one in which no CPU time
//            passed), then (--all) sar's %user and %nice, which PerfMonger's
//            %usr adds up, and "Task
//            activity"; --json its "cpu" (native: with "source" and
//            "resolution_ns") and "proc"
//   csv      cpu.all.<f>, cpu.cores.<i>.<f>, proc.<f> (empty where null)
//   metrics  cpu_metrics.cc
//   plot     cpu.dat (PerfMonger's; a pair that measured nothing is a row
//            of zeros, which the charts leave out); charts cpu (stacked)
//            and allcpu (a strip per core)
//   live     cpu_live.cc
#include "playback/reports/cpu_report.hh"

#include <algorithm>
#include <array>
#include <cstdio>
#include <span>
#include <string>

#include "playback/outputs/export_csv.hh"
#include "playback/reports/play_text.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/stat_row.hh"
#include "proto/json.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/cpu.hh"

namespace pm {
namespace {

// summary's text block starts "* " and it (Report::heading).
constexpr std::string_view kHeading = "Average CPU usage";

const size_t kCpu = MemberIndexOf("cpu"), kProc = MemberIndexOf("proc");
enum CpuField { kUser, kNice, kSys, kIdle, kIowait, kIrq, kSoft, kSteal, kGuest, kGuestNice };
static_assert(kCpuFields[kGuestNice] == "guest_nice" && kCpuFields[kIrq] == "irq");

std::array<double, 10> Fields(const CpuUsage& u) {
  return {u.usr, u.nice, u.sys, u.idle, u.iowait, u.hardirq, u.softirq, u.steal, u.guest,
          u.guestnice};
}

constexpr std::string_view kNullCore =
    "{\"usr\":null,\"nice\":null,\"sys\":null,\"idle\":null,\"iowait\":null,"
    "\"hardirq\":null,\"softirq\":null,\"steal\":null,\"guest\":null,\"guestnice\":null}";

void AppendCoreJson(std::string& out, const CpuUsage& u, const Pair& pair) {
  if (IsNull(u, pair)) {
    out.append(kNullCore);
    return;
  }
  char buf[10 * kFixedMember + 2];
  char* p = Member(buf, "{\"usr\":", u.usr);
  p = Member(p, ",\"nice\":", u.nice);
  p = Member(p, ",\"sys\":", u.sys);
  p = Member(p, ",\"idle\":", u.idle);
  p = Member(p, ",\"iowait\":", u.iowait);
  p = Member(p, ",\"hardirq\":", u.hardirq);
  p = Member(p, ",\"softirq\":", u.softirq);
  p = Member(p, ",\"steal\":", u.steal);
  p = Member(p, ",\"guest\":", u.guest);
  p = Member(p, ",\"guestnice\":", u.guestnice);
  AppendWritten(out, buf, Put(p, '}'));
}

// ,"cpu":{"num_core":N,"all":{..},"cores":[..]}
void AppendCpuJson(std::string& out, const Pair& p) {
  const size_t cores = NumCore(p);
  char buf[32 + kUintTextMax];  // the keys and an int
  char* q = WriteUint(Put(buf, ",\"cpu\":{\"num_core\":"), cores);
  AppendWritten(out, buf, Put(q, ",\"all\":"));
  AppendCoreJson(out, AllUsage(p), p);
  out.append(",\"cores\":[");
  for (size_t i = 0; i < cores; ++i) {
    if (i > 0) out.push_back(',');
    AppendCoreJson(out, CoreUsage(p, i), p);
  }
  out.append("]}");
}

// sar -w's cswch/s and proc/s, from "proc" (ctxt, processes).
struct TaskRates {
  double cswch = 0, forks = 0;
};

TaskRates Tasks(const Pair& p) {
  std::span<const uint64_t> a = p.prev.members[kProc].row(0), b = p.cur.members[kProc].row(0);
  return {PerSecond(static_cast<double>(CounterDelta(a[0], b[0])), p.interval),
          PerSecond(static_cast<double>(CounterDelta(a[1], b[1])), p.interval)};
}
static_assert(kProcFields[0] == "ctxt" && kProcFields[1] == "processes");

// Beyond PerfMonger's schema: not for a legacy recording, whose "proc" is
// PerfMonger's too.
bool HasTasks(const Pair& p) { return !p.options.legacy && p.Both(kProc); }

}  // namespace

double ContextSwitchesPerSecond(const Pair& p) {
  return p.Both(kProc) ? Tasks(p).cswch : std::nan("");
}

namespace {

// ,"proc":{"cswchps":..,"forkps":..}
void AppendTasksJson(std::string& out, const TaskRates& t) {
  char buf[2 * kFixedMember + 16];
  char* q = Member(buf, ",\"proc\":{\"cswchps\":", t.cswch);
  AppendWritten(out, buf, Put(Member(q, ",\"forkps\":", t.forks), '}'));
}

void Play(std::string& out, const Pair& p) {
  if (p.Both(kCpu)) AppendCpuJson(out, p);
  if (HasTasks(p)) AppendTasksJson(out, Tasks(p));
}

// A native span or phase shorter than its CPU time's resolution: no
// number of it is to be trusted.
bool ShorterThanResolution(const Pair& p) {
  return !p.options.legacy && IntervalNs(p.prev, p.cur) < CpuResolutionNs(p.options.info);
}

// "3.217 ms"
std::string Millis(int64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

// Instead of the numbers, why there are none (a native recording only).
bool NotMeasuredText(std::string& out, const Pair& p, const CpuUsage& a) {
  if (!IsNull(a, p)) return false;
  out.append("  * not measured: no CPU time passed in the span\n");
  return true;
}

// Beneath the numbers of a span shorter than what they were counted in.
void ResolutionText(std::string& out, const Pair& p) {
  if (!ShorterThanResolution(p)) return;
  out.append("  * shorter than the CPU time's resolution (" +
             Millis(CpuResolutionNs(p.options.info)) + "; the span is " +
             Millis(IntervalNs(p.prev, p.cur)) + "): at most that precise\n");
}

// PerfMonger's block (its summarizer's Printf templates); a native
// recording's ends with the source of its CPU time.
void SummaryText(std::string& out, const Pair& p) {
  if (!p.rated() || !p.Both(kCpu)) return;
  const CpuUsage a = AllUsage(p);
  const size_t cores = NumCore(p);
  out.append("* ").append(kHeading).append(" (MAX: ");
  AppendUint(out, 100 * cores);
  out.append(" %)\n");
  if (!NotMeasuredText(out, p, a)) {
    // PerfMonger's MAX − idle − iowait would claim 100 % per core busy.
    double max = a.measured ? static_cast<double>(cores) * 100.0 : 0.0;
    double busy = max - a.idle - a.iowait;
    // The finer arithmetic's modes add up to MAX but for rounding: no -0.00.
    if (!p.options.legacy) busy = std::max(0.0, busy);
    SummaryLine(out, "  * Non-idle usage: ", busy, 2, " %");
    SummaryLine(out, "       %usr: ", a.usr + a.nice, 2, " %");
    SummaryLine(out, "       %sys: ", a.sys, 2, " %");
    SummaryLine(out, "       %irq: ", a.hardirq, 2, " %");
    SummaryLine(out, "      %soft: ", a.softirq, 2, " %");
    SummaryLine(out, "     %other: ", a.steal, 2, " %");
    SummaryLine(out, "  * Idle usage: ", a.idle + a.iowait, 2, " %");
    SummaryLine(out, "    %iowait: ", a.iowait, 2, " %");
    SummaryLine(out, "      %idle: ", a.idle, 2, " %");
    ResolutionText(out, p);
  }
  if (!p.options.legacy) out.append("  * CPU time: " + CpuSourceText(p.options.info) + "\n");
  out.push_back('\n');
}

// summary --json: play's object over the span and (native) the source
// and resolution of its CPU time (a span shorter than it is noted on
// stderr by tools/readers/summary_cli.cc).
void SummaryJson(std::string& out, const Pair& p) {
  if (!p.rated()) return;
  if (p.Both(kCpu)) {
    AppendCpuJson(out, p);
    if (!p.options.legacy) {
      out.pop_back();  // the object's '}'
      out.append(",\"source\":");
      AppendJsonString(out, CpuSourceText(p.options.info));
      out.append(",\"resolution_ns\":");
      AppendInt(out, CpuResolutionNs(p.options.info));
      out.push_back('}');
    }
  }
  if (HasTasks(p)) AppendTasksJson(out, Tasks(p));
}

// * Task activity
//     context switches: 1234.00 /s
// Only with --all: the default text stays PerfMonger's byte for byte.
void TasksText(std::string& out, const Pair& p) {
  if (!p.options.all || !p.rated() || !HasTasks(p)) return;
  const TaskRates t = Tasks(p);
  out.append("* Task activity\n");
  SummaryLine(out, "  context switches: ", t.cswch, 2, " /s");
  SummaryLine(out, "             forks: ", t.forks, 2, " /s");
  out.push_back('\n');
}

// * CPU usage, sar's modes (%usr above is %user + %nice)
//         %user: 42.62 %
//         %nice: 34.10 %
// PerfMonger's %usr holds nice time, often other people's jobs. Only
// with --all, for a recording of ours (PerfMonger's text stays first).
void UserNiceText(std::string& out, const Pair& p) {
  if (!p.options.all || p.options.legacy || !p.rated()) return;
  const CpuUsage a = AllUsage(p);
  if (!a.measured) return;
  out.append("* CPU usage, sar's modes (%usr above is %user + %nice)\n");
  SummaryLine(out, "         %user: ", a.usr, 2, " %");
  SummaryLine(out, "         %nice: ", a.nice, 2, " %");
  out.push_back('\n');
}

void Summary(std::string& out, const Pair& p) {
  SummaryText(out, p);
  UserNiceText(out, p);
  TasksText(out, p);
}

// summary --stats: all CPUs' modes and busy share (100 = one core), the
// busiest core's busy share in each interval, sar -w's rates. An
// interval without a tick measured nothing: no value.
void CpuStats(StatRow& row, const Pair& p) {
  const CpuUsage a = AllUsage(p);
  if (!a.measured) return;
  constexpr std::string_view kModes[] = {"usr",     "nice",    "sys",   "iowait",
                                         "hardirq", "softirq", "steal", "idle"};
  const double values[] = {a.usr, a.nice, a.sys, a.iowait, a.hardirq, a.softirq, a.steal, a.idle};
  const size_t cores = NumCore(p);
  row.Rate("cpu", "all", "busy", "%",
           std::max(0.0, static_cast<double>(cores) * 100.0 - a.idle - a.iowait));
  for (size_t i = 0; i < std::size(kModes); ++i) row.Rate("cpu", "all", kModes[i], "%", values[i]);
  double busiest = 0;
  for (size_t c = 0; c < cores; ++c) {
    const CpuUsage u = CoreUsage(p, c);
    if (u.measured) busiest = std::max(busiest, 100.0 - u.idle - u.iowait);
  }
  row.Rate("cpu", "busiest_core", "busy", "%", busiest);
}

void Stats(StatRow& row, const Pair& p) {
  if (!p.rated()) return;
  if (p.Both(kCpu)) CpuStats(row, p);
  if (!HasTasks(p)) return;
  const TaskRates t = Tasks(p);
  row.Rate("proc", "", "cswchps", "/s", t.cswch);
  row.Rate("proc", "", "forkps", "/s", t.forks);
}

constexpr std::string_view kCsvKeys[] = {"usr",     "nice",    "sys",   "idle",  "iowait",
                                         "hardirq", "softirq", "steal", "guest", "guestnice"};

constexpr std::string_view kTaskKeys[] = {"cswchps", "forkps"};

void TasksCsv(CsvRow& row, const Pair& p) {
  if (!HasTasks(p)) return;
  const TaskRates t = Tasks(p);
  row.Group("proc", "", kTaskKeys);
  row.Fixed(t.cswch, 2);
  row.Fixed(t.forks, 2);
}

// Not measured: the group's cells stay empty.
void CsvCells(CsvRow& row, const CpuUsage& u, const Pair& p) {
  if (IsNull(u, p)) return;
  for (double v : Fields(u)) row.Fixed(v, 2);
}

void CpuCsv(CsvRow& row, const Pair& p) {
  if (!p.Both(kCpu)) return;
  row.Group("cpu", "all", kCsvKeys);
  CsvCells(row, AllUsage(p), p);
  const MemberRows& cur = p.cur.members[kCpu];
  for (size_t i = 0; i < NumCore(p); ++i) {
    row.Group("cpu.cores", cur.names[i + 1], kCsvKeys);
    CsvCells(row, CoreUsage(p, i), p);
  }
}

void Csv(CsvRow& row, const Pair& p) {
  CpuCsv(row, p);
  TasksCsv(row, p);
}


constexpr PlotFileSpec kFiles[] = {
    {"cpu.dat",
     "# elapsed_time\t%usr\t%nice\t%sys\t%iowait\t%hardirq\t%softirq\t%steal\t%guest\t%idle\n",
     false}};

// A pair in which no jiffy passed (two samples within one tick, such as a
// mark's just after a scheduled one) measured nothing: PerfMonger's
// arithmetic gives all zeros, and its cpu.dat has that row; the charts
// leave it out (kCharts' `measured`).
void PlotRow(PlotLines& out, PlotBlock& block, const CpuUsage& u) {
  std::string& line = out.Line(block);
  for (double v : {u.usr, u.nice, u.sys, u.iowait, u.hardirq, u.softirq, u.steal, u.guest, u.idle})
    PlotLines::Col(line, v);
  line.push_back('\n');
}

void PlotPair(PlotLines& out, const Pair& p) {
  if (!p.Both(kCpu)) return;
  PlotRow(out, out.Block(0, 0, "all", "# All cpu usage"), AllUsage(p));
  const MemberRows& cur = p.cur.members[kCpu];
  for (size_t i = 0; i < NumCore(p); ++i) {
    const std::string& name = cur.names[i + 1];
    PlotRow(out, out.Block(0, 1 + i, name, "# core: " + name), CoreUsage(p, i));
  }
}

// The stacked layers, top first (so the legend reads as the stack):
// cpu.dat's columns summed to the layer's top.
constexpr ChartLayer kLayers[] = {
    {"%steal+guest", "#8c564b", "$2+$3+$4+$5+$6+$7+$8+$9"},
    {"%irq+softirq", "#9467bd", "$2+$3+$4+$5+$6+$7"},
    {"%iowait", "#d62728", "$2+$3+$4+$5"},
    {"%sys", "#ff7f0e", "$2+$3+$4"},
    {"%nice", "#2ca02c", "$2+$3"},
    {"%usr", "#1f77b4", "$2"},
};
// Every mode, idle too: 0 only where no jiffy passed.
constexpr std::string_view kMeasured = "$2+$3+$4+$5+$6+$7+$8+$9+$10";
constexpr ChartSpec kCharts[] = {
    {.name = "cpu", .title = "CPU usage, all cores", .ylabel = "%CPU (100 = one core busy)",
     .kind = ChartKind::kStack, .layers = kLayers, .ymax = 100, .ymax_per_strip = true,
     .measured = kMeasured},
    {.name = "allcpu", .title = "CPU usage per core", .kind = ChartKind::kStrips,
     .layers = kLayers, .ymax = 100, .strip_label = "core", .measured = kMeasured},
};
constexpr PlotSlot kPlot = {kFiles, PlotPair, kCharts};

}  // namespace

extern const LiveSlot kCpuLive;        // cpu_live.cc
extern const MetricsSlot kCpuMetrics;  // cpu_metrics.cc
extern const Report kCpuReport;
constexpr Report kCpuReport = {
    .play = Play,
    .summary_text = Summary,
    .heading = kHeading,
    .summary_json = SummaryJson,
    .phases = &kCounterGaps,
    .stats = Stats,
    .csv = Csv,
    .openmetrics = &kCpuMetrics,
    .plot = &kPlot,
    .live = &kCpuLive,
};

}  // namespace pm
