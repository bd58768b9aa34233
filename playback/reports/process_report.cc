// The procs collector (member "procs": a row per --pid PID, or "cmd" for
// `stat`'s command, from /proc/PID/stat and /io; children that were
// waited for included) in every output. A process gone (or not yet
// started) in either sample of a pair is null.
//   play     "procs":{"cmd":{"usr":..,"sys":..,"child_usr":..,"child_sys":..,  % of one core
//                    "rkbyteps":..,"wkbyteps":..,                       storage I/O
//                    "rchar_kbyteps":..,"wchar_kbyteps":..,             read()/write() bytes
//                    "syscrps":..,"syscwps":..,"num_threads":N,"rss_kb":N,
//                    "cpu":..,"run_wait":..}}                           % of one core
//
// CPU precision: a recording with cpu_ns (thread_group_cpu.hh) has the
// process's own CPU time in ns. `cpu` is that time, `usr` and `sys` split
// it in the proportion of the kernel's user and system ticks over the
// interval (over the process's life when no tick fell in it), as the
// kernel itself splits it for /proc/PID/stat; `run_wait` is the share of
// the interval its threads waited in a run queue. The kernel adds a wait
// when it ends (the thread gets a CPU), so one interval can hold the wait
// of earlier ones (above 100 % of a thread); over a phase it is exact but
// for a wait still in progress at its ends. Without cpu_ns (older
// recordings), usr and sys are the 10 ms ticks and cpu, run_wait are
// left out. Children's times are ticks either way.
//   summary  the amounts over the span (CPU seconds, bytes) beside the
//            system's: its busy CPU seconds and the recorded disks' bytes
//   csv      procs.<row>.<play's key>
//   metrics  perfmonger_process_*{pid,comm} (node_exporter has no
//            per-process metrics; comm from the header's labels)
//   plot     process.dat, a block per process; charts process-cpu, process-io;
//            and the process table's proctable.dat, chart proctable-cpu
//            (playback/outputs/proc_table_plot.hh)
#include <span>

#include "playback/outputs/export_csv.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/outputs/proc_table_plot.hh"
#include "playback/reports/cpu_brief.hh"
#include "playback/reports/disk_report.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/reports/process_report.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/report.hh"
#include "playback/reports/stat_row.hh"
#include "proto/json.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/process.hh"

namespace pm {
namespace {

// summary's text block starts "* " and it (Report::heading).
constexpr std::string_view kHeading = "Process";

using namespace process_field;
using Field = size_t;
static_assert(kProcessFields.size() == kRssKb + 1);
const size_t kMember = MemberIndexOf("procs");
constexpr size_t kLevels = kProcessFields.size() - kProcessCounters;

// Whether the recording has the process's CPU time in ns.
bool Precise(const Pair& p) { return p.options.Recorded(kMember, kCpuNs); }

// A process's own CPU time over a pair, in seconds.
struct OwnCpu {
  double usr = 0, sys = 0;
  double total() const { return usr + sys; }
};

// The ns total split as the ticks of the interval are, else as those of
// the process's life (`cur`: its cumulative row), else all user time.
OwnCpu SplitNs(const RowDelta& v, std::span<const uint64_t> cur) {
  const double total = v[kCpuNs] / 1e9;
  double u = v[kUtime], s = v[kStime];
  if (u + s == 0) u = static_cast<double>(cur[kUtime]), s = static_cast<double>(cur[kStime]);
  const double usr_share = u + s == 0 ? 1.0 : u / (u + s);
  return {total * usr_share, total * (1.0 - usr_share)};
}

OwnCpu Own(const Pair& p, const RowDelta& v, std::span<const uint64_t> cur) {
  if (Precise(p)) return SplitNs(v, cur);
  return {v[kUtime] / 1e6, v[kStime] / 1e6};
}

// Digits of a CPU figure in seconds: as many as its source resolves
// (µs for the ns clock, 10 ms for ticks).
int CpuDigits(const Pair& p) { return Precise(p) ? 6 : 2; }

void PlayRow(std::string& out, const Pair& p, const RowDelta& v, std::span<const uint64_t> cur) {
  const double s = p.interval;
  auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
  auto kbps = [&](Field f) { return PerSecond(v[f] / 1024.0, s); };
  const OwnCpu own = Own(p, v, cur);
  out.push_back('{');
  AppendFixedMember(out, "usr", PerSecond(own.usr, s) * 100.0);
  AppendFixedMember(out, "sys", PerSecond(own.sys, s) * 100.0);
  AppendFixedMember(out, "child_usr", pct(kCutime));
  AppendFixedMember(out, "child_sys", pct(kCstime));
  AppendFixedMember(out, "rkbyteps", kbps(kReadBytes));
  AppendFixedMember(out, "wkbyteps", kbps(kWriteBytes));
  AppendFixedMember(out, "rchar_kbyteps", kbps(kRchar));
  AppendFixedMember(out, "wchar_kbyteps", kbps(kWchar));
  AppendFixedMember(out, "syscrps", PerSecond(v[kSyscr], s));
  AppendFixedMember(out, "syscwps", PerSecond(v[kSyscw], s));
  AppendUintMember(out, "num_threads", static_cast<uint64_t>(v[kThreads]));
  AppendUintMember(out, "rss_kb", static_cast<uint64_t>(v[kRssKb]));
  if (Precise(p)) {
    AppendFixedMember(out, "cpu", PerSecond(own.total(), s) * 100.0);
    AppendFixedMember(out, "run_wait", PerSecond(v[kRunWaitNs] / 1e9, s) * 100.0);
  }
  out.push_back('}');
}

// {"ROW":{..} or null,...}; `row` gets the pair's delta and the later
// sample's cumulative row.
template <class Row>
void Rows(std::string& out, const Pair& p, Row row) {
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  out.push_back('{');
  for (size_t i = 0; i < cur.rows(); ++i) {
    if (out.back() != '{') out.push_back(',');
    AppendJsonKey(out, cur.names[i]);
    RowDelta d = DeltaOf(prev, cur, i, kLevels);
    if (d.present) row(d, cur.row(i));
    else out.append("null");
  }
  out.push_back('}');
}

void Play(std::string& out, const Pair& p) {
  if (!p.Both(kMember)) return;
  out.append(",\"procs\":");
  Rows(out, p, [&](const RowDelta& v, std::span<const uint64_t> cur) { PlayRow(out, p, v, cur); });
}

// Its own CPU and its waited-for children's, in seconds.
double CpuSeconds(const Pair& p, const RowDelta& v, std::span<const uint64_t> cur) {
  return Own(p, v, cur).total() + (v[kCutime] + v[kCstime]) / 1e6;
}

// {"cmd":{"cpu_sec":..,"usr_sec":..,"sys_sec":..,"read_bytes":N,...},
//  "system":{"cpu_sec":..,"read_bytes":N,"write_bytes":N}}
void SummaryJson(std::string& out, const Pair& p) {
  if (!p.rated() || !p.Both(kMember)) return;
  const DiskSectors disk = TotalSectors(p);
  out.append(",\"procs\":");
  const int digits = CpuDigits(p);
  Rows(out, p, [&](const RowDelta& v, std::span<const uint64_t> cur) {
    const OwnCpu own = Own(p, v, cur);
    out.push_back('{');
    AppendFixedMember(out, "cpu_sec", CpuSeconds(p, v, cur), digits);
    AppendFixedMember(out, "usr_sec", own.usr + v[kCutime] / 1e6, digits);
    AppendFixedMember(out, "sys_sec", own.sys + v[kCstime] / 1e6, digits);
    if (Precise(p)) AppendFixedMember(out, "run_wait_sec", v[kRunWaitNs] / 1e9, digits);
    if (p.options.Recorded(kMember, kMinflt))
      for (Field f : {kMinflt, kMajflt, kCtxsw})
        AppendUintMember(out, kProcessFields[f], static_cast<uint64_t>(v[f]));
    AppendUintMember(out, "read_bytes", static_cast<uint64_t>(v[kReadBytes]));
    AppendUintMember(out, "write_bytes", static_cast<uint64_t>(v[kWriteBytes]));
    AppendUintMember(out, "rchar", static_cast<uint64_t>(v[kRchar]));
    AppendUintMember(out, "wchar", static_cast<uint64_t>(v[kWchar]));
    AppendUintMember(out, "num_threads", static_cast<uint64_t>(v[kThreads]));
    AppendUintMember(out, "rss_kb", static_cast<uint64_t>(v[kRssKb]));
    out.push_back('}');
  });
  out.pop_back();
  out.append(",\"system\":{");
  AppendFixedMember(out, "cpu_sec", BusyCpuSeconds(p));
  AppendUintMember(out, "read_bytes", static_cast<uint64_t>(disk.read) * 512);
  AppendUintMember(out, "write_bytes", static_cast<uint64_t>(disk.written) * 512);
  out.append("}}");
}

void Line(std::string& out, std::string_view label, double own, int own_precision,
          double system, int precision, std::string_view unit) {
  out.append(label);
  AppendFixed(out, own, own_precision);
  out.append(unit).append("   (whole machine: ");
  AppendFixed(out, system, precision);
  out.append(unit).append(")\n");
}

//      page faults: 12 minor, 0 major
// context switches: 34
void FaultLines(std::string& out, const RowDelta& v) {
  out.append("      page faults: ");
  AppendUint(out, static_cast<uint64_t>(v[kMinflt]));
  out.append(" minor, ");
  AppendUint(out, static_cast<uint64_t>(v[kMajflt]));
  out.append(" major\n context switches: ");
  AppendUint(out, static_cast<uint64_t>(v[kCtxsw]));
  out.append("\n\n");
}

// * Process cmd (children included)
//         CPU time: 1.23 sec   (whole machine: 4.56 sec)
void SummaryText(std::string& out, const Pair& p) {
  if (!p.rated() || !p.Both(kMember)) return;
  const DiskSectors disk = TotalSectors(p);
  const double mb = 1024.0 * 1024.0;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  for (size_t i = 0; i < cur.rows(); ++i) {
    out.append("* ").append(kHeading).append(" ").append(cur.names[i]);
    out.append(" (waited-for children included)\n");
    const RowDelta v = DeltaOf(prev, cur, i, kLevels);
    if (!v.present) {
      out.append("  not running at both ends of the span\n\n");
      continue;
    }
    Line(out, "         CPU time: ", CpuSeconds(p, v, cur.row(i)), CpuDigits(p),
         BusyCpuSeconds(p), 2, " sec");
    if (Precise(p)) SummaryLine(out, "   run-queue wait: ", v[kRunWaitNs] / 1e9, 6, " sec");
    Line(out, "      read amount: ", v[kReadBytes] / mb, 2,
         static_cast<double>(disk.read) * 512.0 / mb, 2, " MB");
    Line(out, "     write amount: ", v[kWriteBytes] / mb, 2,
         static_cast<double>(disk.written) * 512.0 / mb, 2, " MB");
    SummaryLine(out, "    read() amount: ", v[kRchar] / mb, 2, " MB");
    SummaryLine(out, "   write() amount: ", v[kWchar] / mb, 2,
                p.options.Recorded(kMember, kMinflt) ? " MB" : " MB\n");
    if (p.options.Recorded(kMember, kMinflt)) FaultLines(out, v);
  }
}

constexpr std::string_view kCsvKeys[] = {
    "usr", "sys", "child_usr", "child_sys", "rkbyteps", "wkbyteps", "rchar_kbyteps",
    "wchar_kbyteps", "syscrps", "syscwps", "num_threads", "rss_kb", "cpu", "run_wait"};

// summary --stats, per process: CPU in % of one core (children waited
// for included), run-queue wait in % of the interval, storage I/O in
// MiB/s, RSS in MiB (each sample's).
void Stats(StatRow& row, const Pair& p) {
  if (!p.Both(kMember)) return;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  const double s = p.interval, mib = 1024.0 * 1024.0;
  for (size_t i = 0; i < cur.rows(); ++i) {
    const RowDelta v = DeltaOf(prev, cur, i, kLevels);
    if (!v.present) continue;
    const std::string& name = cur.names[i];
    const OwnCpu own = Own(p, v, cur.row(i));
    auto pct = [&](double seconds) { return PerSecond(seconds, s) * 100.0; };
    row.Rate("procs", name, "cpu", "%", pct(CpuSeconds(p, v, cur.row(i))));
    row.Rate("procs", name, "usr", "%", pct(own.usr + v[kCutime] / 1e6));
    row.Rate("procs", name, "sys", "%", pct(own.sys + v[kCstime] / 1e6));
    if (Precise(p)) row.Rate("procs", name, "run_wait", "%", pct(v[kRunWaitNs] / 1e9));
    row.Rate("procs", name, "rmibps", "MiB/s", PerSecond(v[kReadBytes] / mib, s));
    row.Rate("procs", name, "wmibps", "MiB/s", PerSecond(v[kWriteBytes] / mib, s));
    row.Level("procs", name, "rss", "MiB", v[kRssKb] / 1024.0);
  }
}

// The precise columns (cpu, run_wait) are last: empty for an older
// recording.
void Csv(CsvRow& row, const Pair& p) {
  if (!p.Both(kMember)) return;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  const double s = p.interval;
  auto pct = [&](double seconds) { return PerSecond(seconds, s) * 100.0; };
  for (size_t i = 0; i < cur.rows(); ++i) {
    row.Group("procs", cur.names[i], kCsvKeys);
    const RowDelta v = DeltaOf(prev, cur, i, kLevels);
    if (!v.present) continue;
    const OwnCpu own = Own(p, v, cur.row(i));
    row.Fixed(pct(own.usr), 2);
    row.Fixed(pct(own.sys), 2);
    for (Field f : {kCutime, kCstime}) row.Fixed(pct(v[f] / 1e6), 2);
    for (Field f : {kReadBytes, kWriteBytes, kRchar, kWchar})
      row.Fixed(PerSecond(v[f] / 1024.0, s), 2);
    row.Fixed(PerSecond(v[kSyscr], s), 2);
    row.Fixed(PerSecond(v[kSyscw], s), 2);
    row.Int(static_cast<int64_t>(v[kThreads]));
    row.Int(static_cast<int64_t>(v[kRssKb]));
    if (!Precise(p)) continue;
    row.Fixed(pct(own.total()), 2);
    row.Fixed(pct(v[kRunWaitNs] / 1e9), 2);
  }
}

// In the order of the series a process gets (its fields' order).
namespace family {
enum : uint32_t { kCpu, kChildrenCpu, kRchar, kWchar, kRead, kWritten, kSyscr, kSyscw,
                  kRun, kRunWait, kMinflt, kMajflt, kCtxsw, kThreads, kRss };
}  // namespace family

void Families(MetricFamilies& out) {
  out.Counter("perfmonger_process_cpu_seconds", "seconds",
              "CPU time of the process (/proc/PID/stat utime, stime) by mode.");
  out.Counter("perfmonger_process_children_cpu_seconds", "seconds",
              "CPU time of the process's waited-for children (cutime, cstime) by mode.");
  out.Counter("perfmonger_process_rchar_bytes", "bytes",
              "Bytes the process read through read() and similar calls (/proc/PID/io rchar).");
  out.Counter("perfmonger_process_wchar_bytes", "bytes",
              "Bytes the process wrote through write() and similar calls (wchar).");
  out.Counter("perfmonger_process_read_bytes", "bytes",
              "Bytes the process caused to be read from storage (read_bytes).");
  out.Counter("perfmonger_process_written_bytes", "bytes",
              "Bytes the process caused to be written to storage (write_bytes).");
  out.Counter("perfmonger_process_read_syscalls", "", "Read system calls of the process (syscr).");
  out.Counter("perfmonger_process_write_syscalls", "", "Write system calls of the process (syscw).");
  out.Counter("perfmonger_process_run_seconds", "seconds",
              "Time the process's threads ran on a CPU, exited threads included (its CPU "
              "clock, ns).");
  out.Counter("perfmonger_process_run_wait_seconds", "seconds",
              "Time the process's threads were runnable but waiting for a CPU "
              "(/proc/PID/task/*/schedstat, ns).");
  out.Counter("perfmonger_process_minor_faults", "", "Minor page faults of the process (minflt).");
  out.Counter("perfmonger_process_major_faults", "", "Major page faults of the process (majflt).");
  out.Counter("perfmonger_process_context_switches", "",
              "Times the process's threads were switched onto a CPU (schedstat timeslices).");
  out.Gauge("perfmonger_process_threads", "", "Threads of the process.");
  out.Gauge("perfmonger_process_resident_memory_bytes", "bytes", "Resident set size of the process.");
}

// The process's comm as the header gives it, or "".
std::string_view CommOf(const RecordingInfo& info, size_t row) {
  for (const auto& [name, values] : info.row_labels[kMember])
    if (name == "comm" && row < values.size()) return values[row];
  return {};
}

// The series of one process, in its fields' order (ids follow each
// other), the precise pair only where recorded: the first one's id.
uint32_t ProcessSeries(MetricRow& row, const std::string& labels) {
  std::string user = labels + ",mode=\"user\"", system = labels + ",mode=\"system\"";
  namespace f = family;
  uint32_t first = row.Add(f::kCpu, Scale::kPerMillion, user);
  row.Add(f::kCpu, Scale::kPerMillion, system);
  row.Add(f::kChildrenCpu, Scale::kPerMillion, user);
  row.Add(f::kChildrenCpu, Scale::kPerMillion, system);
  for (uint32_t k : {f::kRchar, f::kWchar, f::kRead, f::kWritten, f::kSyscr, f::kSyscw})
    row.Add(k, Scale::kOne, labels);
  if (row.info().Recorded(kMember, kCpuNs)) {
    row.Add(f::kRun, Scale::kPerBillion, labels);
    row.Add(f::kRunWait, Scale::kPerBillion, labels);
  }
  if (row.info().Recorded(kMember, kMinflt))
    for (uint32_t k : {f::kMinflt, f::kMajflt, f::kCtxsw}) row.Add(k, Scale::kOne, labels);
  row.Add(f::kThreads, Scale::kOne, labels);
  row.Add(f::kRss, Scale::kTimes1024, labels);
  return first;
}

void Series(MetricRow& row, const RawSample& s) {
  const MemberRows& m = s.members[kMember];
  const bool precise = row.info().Recorded(kMember, kCpuNs);
  const bool faults = row.info().Recorded(kMember, kMinflt);
  for (size_t i = 0; m.has && i < m.rows(); ++i) {
    if (!m.live(i)) continue;
    uint32_t base = row.Block(m.names[i], [&] {
      std::string labels;
      AppendLabel(labels, "pid", m.names[i]);
      if (std::string_view comm = CommOf(row.info(), i); !comm.empty()) {
        labels.push_back(',');
        AppendLabel(labels, "comm", comm);
      }
      return ProcessSeries(row, labels);
    });
    if (base == MetricRow::kLeftOut) continue;
    // No series for the columns never measured: the rest follow on.
    std::span<const uint64_t> v = m.row(i);
    uint32_t at = base;
    auto put = [&](std::span<const uint64_t> part) {
      row.Put(at, part);
      at += static_cast<uint32_t>(part.size());
    };
    put(v.first(kCpuNs));
    if (precise) put(v.subspan(kCpuNs, kMinflt - kCpuNs));
    if (faults) put(v.subspan(kMinflt, kThreads - kMinflt));
    put(v.subspan(kThreads));
  }
}
static_assert(kRssKb == 16 && kThreads == 15 && kMinflt == 12 && kCpuNs == 10 && kRchar == 4 &&
              kSyscw == 9);

constexpr std::string_view kLabels[] = {"pid", "comm", "mode"};
constexpr MetricsSlot kMetrics = {Families, kLabels, Series};

constexpr PlotFileSpec kFiles[] = {
    {"process.dat",
     "# elapsed_time\t%usr\t%sys\t%child_usr\t%child_sys\tread_kB/s\twrite_kB/s\t"
     "rchar_kB/s\twchar_kB/s\t%run_wait\n"},
    kProcTableFile};

void PlotPair(PlotLines& out, const Pair& p) {
  PlotProcTable(out, p, 1);
  if (!p.Both(kMember)) return;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  const double s = p.interval;
  auto pct = [&](double seconds) { return PerSecond(seconds, s) * 100.0; };
  for (size_t i = 0; i < cur.rows(); ++i) {
    PlotBlock& block = out.Block(0, i, cur.names[i], "# process: " + cur.names[i]);
    const RowDelta v = DeltaOf(prev, cur, i, kLevels);
    if (!v.present) continue;
    std::string& line = out.Line(block);
    const OwnCpu own = Own(p, v, cur.row(i));
    PlotLines::Col(line, pct(own.usr));
    PlotLines::Col(line, pct(own.sys));
    for (Field f : {kCutime, kCstime}) PlotLines::Col(line, pct(v[f] / 1e6));
    for (Field f : {kReadBytes, kWriteBytes, kRchar, kWchar})
      PlotLines::Col(line, PerSecond(v[f] / 1024.0, s));
    PlotLines::Col(line, pct(v[kRunWaitNs] / 1e9));  // 0 in an older recording
    line.push_back('\n');
  }
}

// Its own CPU solid, its children's and its wait for a CPU dashed; storage reads solid, writes
// dashed.
constexpr ChartLine kCpuLines[] = {{"cpu", "$2+$3", false},
                                   {"children", "$4+$5", true},
                                   {"run-queue wait", "$10", true}};
constexpr ChartLine kIoLines[] = {{"read", "$6", false, Direction::kRead},
                                  {"write", "$7", true, Direction::kWrite}};
constexpr ChartSpec kCharts[] = {
    {.name = "process-cpu", .title = "Process CPU", .ylabel = "%CPU (100 = one core busy)",
     .lines = kCpuLines},
    {.name = "process-io", .title = "Process storage I/O", .ylabel = "transfer",
     .lines = kIoLines, .directional = true, .bytes_per_unit = 1024},
    ProcTableChart(1),
};
constexpr PlotSlot kPlot = {kFiles, PlotPair, kCharts};

// live: a group per recorded process (its row's name), its CPU time as a
// percent of one CPU (above 100 on several) and its resident set.
constexpr LiveColumn kLiveColumns[] = {{"cpu", 4, LiveUnit::kPercent},
                                       {"rss", 5, LiveUnit::kBytes}};

void LiveParts(const RawSample& s, std::vector<std::string>& out) {
  const MemberRows& m = s.members[kMember];
  out.assign(m.names.begin(), m.names.end());
}

bool LiveValues(const Pair& p, std::string_view part, std::span<double> out) {
  const RowDelta v = NamedDelta(p, kMember, part, kLevels);
  if (!v.present) return false;
  const MemberRows& cur = p.cur.members[kMember];
  const size_t row = cur.Find(part, 0);
  out[0] = PerSecond(Own(p, v, cur.row(row)).total(), p.interval) * 100.0;
  out[1] = v[kRssKb] * 1024;
  return true;
}
constexpr LiveSlot kLive = {"procs", kLiveColumns, LiveParts, LiveValues};

}  // namespace

ProcessRowsTotal ProcessRowsOver(const Pair& p) {
  ProcessRowsTotal total;
  if (!p.Both(kMember)) return total;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  for (size_t i = 0; i < cur.rows(); ++i) {
    const RowDelta v = DeltaOf(prev, cur, i, kLevels);
    if (!v.present) continue;
    total.cpu_s += CpuSeconds(p, v, cur.row(i));
    total.bytes += static_cast<uint64_t>(v[kReadBytes] + v[kWriteBytes]);
    ++total.rows;
  }
  return total;
}

extern const Report kProcessReport;
constexpr Report kProcessReport = {
    .play = Play,
    .summary_text = SummaryText,
    .heading = kHeading,
    .summary_json = SummaryJson,
    .phases = &kCounterGaps,
    .stats = Stats,
    .csv = Csv,
    .openmetrics = &kMetrics,
    .plot = &kPlot,
    .live = &kLive,
};

}  // namespace pm
