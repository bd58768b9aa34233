// The cgroups collector (members "cgroups": a row per --cgroup PATH as
// recorded, from cpu.stat, io.stat, memory.*, *.pressure; "cgroup_io": a
// row "PATH:DEV" per group and whole disk) in every output. A group gone
// (removed) in either sample of a pair is null.
//   play     "cgroups":{"PATH":{..}} (below); summary a block per group
//   csv      cgroups.<path>.<key>, .pressure.<resource>.<some|full>,
//            .devices.<dev>.<key>
//   metrics  cAdvisor's container_* names with a `cgroup` label where the
//            meaning is cAdvisor's, perfmonger_cgroup_* where it differs
//            (docs/metric-names.md)
//   plot     cgroup.dat, a block per group; charts cgroup-cpu, cgroup-io
// Per group:
//   {"cores":..,"cpu":..,"usr":..,"sys":..,            cores used; % of one core
//    "throttledps":..,"throttled_pct":..,
//    "riops":..,"wiops":..,"rkbyteps":..,"wkbyteps":.., io.stat, all devices
//    "pgmajfaultps":..,
//    "memory_current_kb":N,"anon_kb":N,"file_kb":N,     levels: the later sample
//    "pressure":{"cpu":{"some":..,"full":..},"io":{..},"memory":{..}},
//    "devices":{"vda":{"riops":..,"wiops":..,"rkbyteps":..,"wkbyteps":..}}}  from cgroup_io
// A group gone (removed) in either sample of a pair is null.
#include <tuple>

#include "playback/outputs/export_csv.hh"
#include "playback/reports/cgroup_report.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/stat_row.hh"
#include "playback/reports/report.hh"
#include "proto/json.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/cgroup.hh"
#include "proto/text.hh"

namespace pm {
namespace {

// summary's text block starts "* " and it (Report::heading).
constexpr std::string_view kHeading = "Cgroup";

using namespace cgroup_field;
using Field = size_t;

void Kb(std::string& out, std::string_view key, double bytes) {
  AppendUintMember(out, key, static_cast<uint64_t>(bytes) / 1024);
}

void PressureJson(std::string& out, const RowDelta& v, double s) {
  auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
  out.append(",\"pressure\":{\"cpu\":{");
  AppendFixedMember(out, "some", pct(kCpuSome));
  AppendFixedMember(out, "full", pct(kCpuFull));
  out.append("},\"io\":{");
  AppendFixedMember(out, "some", pct(kIoSome));
  AppendFixedMember(out, "full", pct(kIoFull));
  out.append("},\"memory\":{");
  AppendFixedMember(out, "some", pct(kMemSome));
  AppendFixedMember(out, "full", pct(kMemFull));
  out.append("}}");
}

// The group's rows of cgroup_io ("PATH:DEV"): {"vda":{"riops":..,...},...}.
void DevicesJson(std::string& out, std::string_view group, const Pair& p) {
  const double s = p.interval;
  const MemberRows &prev = p.prev.members[kCgroupIoMember], &cur = p.cur.members[kCgroupIoMember];
  out.append(",\"devices\":{");
  for (size_t i = 0; i < cur.rows(); ++i) {
    std::string_view disk = DiskOf(cur.names[i], group);
    if (disk.empty()) continue;
    if (out.back() != '{') out.push_back(',');
    AppendJsonKey(out, disk);
    RowDelta d = DeltaOf(prev, cur, i, 0);
    if (!d.present) {
      out.append("null");
      continue;
    }
    out.push_back('{');
    AppendFixedMember(out, "riops", PerSecond(d[2], s));
    AppendFixedMember(out, "wiops", PerSecond(d[3], s));
    AppendFixedMember(out, "rkbyteps", PerSecond(d[0] / 1024.0, s));
    AppendFixedMember(out, "wkbyteps", PerSecond(d[1] / 1024.0, s));
    out.push_back('}');
  }
  out.push_back('}');
}

void GroupJson(std::string& out, const RowDelta& v, double s) {
  auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
  out.push_back('{');
  AppendFixedMember(out, "cores", PerSecond(v[kUsage] / 1e6, s));
  AppendFixedMember(out, "cpu", pct(kUsage));
  AppendFixedMember(out, "usr", pct(kUser));
  AppendFixedMember(out, "sys", pct(kSystem));
  AppendFixedMember(out, "throttledps", PerSecond(v[kNrThrottled], s));
  AppendFixedMember(out, "throttled_pct", pct(kThrottled));
  AppendFixedMember(out, "riops", PerSecond(v[kRios], s));
  AppendFixedMember(out, "wiops", PerSecond(v[kWios], s));
  AppendFixedMember(out, "rkbyteps", PerSecond(v[kRbytes] / 1024.0, s));
  AppendFixedMember(out, "wkbyteps", PerSecond(v[kWbytes] / 1024.0, s));
  AppendFixedMember(out, "pgmajfaultps", PerSecond(v[kMajflt], s));
  Kb(out, "memory_current_kb", v[kMemCurrent]);
  Kb(out, "anon_kb", v[kAnon]);
  Kb(out, "file_kb", v[kFile]);
  PressureJson(out, v, s);
  out.push_back('}');
}

void Play(std::string& out, const Pair& p) {
  if (!p.Both(kCgroupMember)) return;
  const MemberRows &prev = p.prev.members[kCgroupMember], &cur = p.cur.members[kCgroupMember];
  out.append(",\"cgroups\":{");
  for (size_t i = 0; i < cur.rows(); ++i) {
    if (out.back() != '{') out.push_back(',');
    AppendJsonKey(out, cur.names[i]);
    RowDelta d = DeltaOf(prev, cur, i, kCgroupLevels);
    if (!d.present) {
      out.append("null");
      continue;
    }
    GroupJson(out, d, p.interval);
    if (p.Both(kCgroupIoMember)) {
      out.pop_back();  // the group's '}'
      DevicesJson(out, cur.names[i], p);
      out.push_back('}');
    }
  }
  out.push_back('}');
}

// "       vda: read 1.00 MB, write 2.00 MB" per disk of cgroup_io.
void DeviceLines(std::string& out, std::string_view group, const Pair& p) {
  if (!p.Both(kCgroupIoMember)) return;
  const MemberRows &prev = p.prev.members[kCgroupIoMember], &cur = p.cur.members[kCgroupIoMember];
  for (size_t i = 0; i < cur.rows(); ++i) {
    std::string_view disk = DiskOf(cur.names[i], group);
    RowDelta d = DeltaOf(prev, cur, i, 0);
    if (!d.present || disk.empty()) continue;
    std::string label(disk);
    if (label.size() < 15) out.append(15 - label.size(), ' ');
    out.append(label).append(": read ");
    AppendFixed(out, d[0] / 1024.0 / 1024.0, 2);
    out.append(" MB, write ");
    AppendFixed(out, d[1] / 1024.0 / 1024.0, 2);
    out.append(" MB\n");
  }
}

// * Cgroup PATH
//        CPU usage: 1.23 cores (usr 100.00 %, sys 23.00 %)
void SummaryText(std::string& out, const Pair& p) {
  if (!p.rated() || !p.Both(kCgroupMember)) return;
  const double s = p.interval, mb = 1024.0 * 1024.0;
  const MemberRows &prev = p.prev.members[kCgroupMember], &cur = p.cur.members[kCgroupMember];
  for (size_t i = 0; i < cur.rows(); ++i) {
    out.append("* ").append(kHeading).push_back(' ');
    AppendPrintable(out, cur.names[i]);  // a group's path as recorded
    out.push_back('\n');
    const RowDelta v = DeltaOf(prev, cur, i, kCgroupLevels);
    if (!v.present) {
      out.append("  not present at both ends of the span\n\n");
      continue;
    }
    auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
    SummaryLine(out, "        CPU usage: ", PerSecond(v[kUsage] / 1e6, s), 2, " cores");
    SummaryLine(out, "             %usr: ", pct(kUser), 2, " %");
    SummaryLine(out, "             %sys: ", pct(kSystem), 2, " %");
    SummaryLine(out, "        throttled: ", pct(kThrottled), 2, " %");
    SummaryLine(out, "        read IOPS: ", PerSecond(v[kRios], s), 2, "");
    SummaryLine(out, "       write IOPS: ", PerSecond(v[kWios], s), 2, "");
    SummaryLine(out, "      read amount: ", v[kRbytes] / mb, 2, " MB");
    SummaryLine(out, "     write amount: ", v[kWbytes] / mb, 2, " MB");
    DeviceLines(out, cur.names[i], p);
    SummaryLine(out, "   memory current: ", v[kMemCurrent] / mb, 2, " MB (last sample)");
    SummaryLine(out, "    pressure: cpu some ", pct(kCpuSome), 2, " %");
    SummaryLine(out, "               io some ", pct(kIoSome), 2, " %");
    SummaryLine(out, "           memory some ", pct(kMemSome), 2, " %");
    out.push_back('\n');
  }
}

constexpr std::string_view kCsvKeys[] = {
    "cores", "cpu", "usr", "sys", "throttledps", "throttled_pct", "riops", "wiops", "rkbyteps",
    "wkbyteps", "pgmajfaultps", "memory_current_kb", "anon_kb", "file_kb"};
constexpr std::string_view kCsvPressure[] = {"some", "full"};
constexpr std::string_view kCsvDevice[] = {"riops", "wiops", "rkbyteps", "wkbyteps"};

// The same numbers as GroupJson and DevicesJson, under their paths.
void CsvGroup(CsvRow& row, const Pair& p, size_t i) {
  const MemberRows &prev = p.prev.members[kCgroupMember], &cur = p.cur.members[kCgroupMember];
  const std::string& name = cur.names[i];
  const double s = p.interval;
  const RowDelta v = DeltaOf(prev, cur, i, kCgroupLevels);
  row.Group("cgroups", name, kCsvKeys);
  if (!v.present) return;
  auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
  row.Fixed(PerSecond(v[kUsage] / 1e6, s), 2);
  for (Field f : {kUsage, kUser, kSystem}) row.Fixed(pct(f), 2);
  row.Fixed(PerSecond(v[kNrThrottled], s), 2);
  row.Fixed(pct(kThrottled), 2);
  for (double x : {PerSecond(v[kRios], s), PerSecond(v[kWios], s), PerSecond(v[kRbytes] / 1024.0, s),
                   PerSecond(v[kWbytes] / 1024.0, s), PerSecond(v[kMajflt], s)})
    row.Fixed(x, 2);
  for (Field f : {kMemCurrent, kAnon, kFile}) row.Int(static_cast<int64_t>(v[f]) / 1024);
  const std::string pressure = "cgroups." + name + ".pressure";
  for (auto [resource, some, full] : {std::tuple{"cpu", kCpuSome, kCpuFull},
                                      std::tuple{"io", kIoSome, kIoFull},
                                      std::tuple{"memory", kMemSome, kMemFull}}) {
    row.Group(pressure, resource, kCsvPressure);
    row.Fixed(pct(some), 2);
    row.Fixed(pct(full), 2);
  }
  if (!p.Both(kCgroupIoMember)) return;
  const MemberRows &io_prev = p.prev.members[kCgroupIoMember], &io = p.cur.members[kCgroupIoMember];
  const std::string devices = "cgroups." + name + ".devices";
  for (size_t k = 0; k < io.rows(); ++k) {
    std::string_view disk = DiskOf(io.names[k], name);
    if (disk.empty()) continue;
    row.Group(devices, disk, kCsvDevice);
    RowDelta d = DeltaOf(io_prev, io, k, 0);
    if (!d.present) continue;
    for (double x : {PerSecond(d[2], s), PerSecond(d[3], s), PerSecond(d[0] / 1024.0, s),
                     PerSecond(d[1] / 1024.0, s)})
      row.Fixed(x, 2);
  }
}

void Csv(CsvRow& row, const Pair& p) {
  if (!p.Both(kCgroupMember)) return;
  for (size_t i = 0; i < p.cur.members[kCgroupMember].rows(); ++i) CsvGroup(row, p, i);
}

// summary --stats, per group: CPU in % of one core, time throttled in %, I/O in IO/s and
// MiB/s, memory.current in MiB (each sample's), pressure "some" in % of
// each interval.
void Stats(StatRow& row, const Pair& p) {
  if (!p.Both(kCgroupMember)) return;
  const MemberRows &prev = p.prev.members[kCgroupMember], &cur = p.cur.members[kCgroupMember];
  const double s = p.interval, mib = 1024.0 * 1024.0;
  for (size_t i = 0; i < cur.rows(); ++i) {
    const RowDelta v = DeltaOf(prev, cur, i, kCgroupLevels);
    if (!v.present) continue;
    const std::string& name = cur.names[i];
    auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
    row.Rate("cgroups", name, "cpu", "%", pct(kUsage));
    row.Rate("cgroups", name, "throttled", "%", pct(kThrottled));
    row.Rate("cgroups", name, "riops", "IO/s", PerSecond(v[kRios], s));
    row.Rate("cgroups", name, "wiops", "IO/s", PerSecond(v[kWios], s));
    row.Rate("cgroups", name, "rmibps", "MiB/s", PerSecond(v[kRbytes] / mib, s));
    row.Rate("cgroups", name, "wmibps", "MiB/s", PerSecond(v[kWbytes] / mib, s));
    row.Level("cgroups", name, "memory_current", "MiB", v[kMemCurrent] / mib);
    for (auto [resource, f] : {std::pair{"pressure_cpu_some", kCpuSome},
                               std::pair{"pressure_io_some", kIoSome},
                               std::pair{"pressure_memory_some", kMemSome}})
      row.Rate("cgroups", name, resource, "%", pct(f));
  }
}

}  // namespace

// cgroup_io's rows ("PATH:DEV", io.stat per disk) show in each group's
// "devices".
extern const Report kCgroupReport;
constexpr Report kCgroupReport = {
    .play = Play,
    .summary_text = SummaryText,
    .heading = kHeading,
    .summary_json = WhenRated<Play>,  // play's object over the span
    .phases = &kCounterGaps,
    .stats = Stats,
    .csv = Csv,
    .openmetrics = &kCgroupMetrics,
    .plot = &kCgroupPlot,
    .live = &kCgroupLive,
};

}  // namespace pm
