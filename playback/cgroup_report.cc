// "cgroups" in play and summary, per group (row: PATH as recorded):
//   {"cores":..,"cpu":..,"usr":..,"sys":..,            cores used; % of one core
//    "throttledps":..,"throttled_pct":..,
//    "riops":..,"wiops":..,"rkbyteps":..,"wkbyteps":.., io.stat, all devices
//    "pgmajfaultps":..,
//    "memory_current_kb":N,"anon_kb":N,"file_kb":N,     levels: the later sample
//    "pressure":{"cpu":{"some":..,"full":..},"io":{..},"memory":{..}},
//    "devices":{"vda":{"riops":..,"wiops":..,"rkbyteps":..,"wkbyteps":..}}}  from cgroup_io
// A group gone (removed) in either sample of a pair is null.
#include "playback/rates.hh"
#include "playback/report.hh"
#include "proto/json.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

using namespace cgroup_field;
using Field = size_t;
static_assert(kCgroupFields.size() == kFile + 1);
constexpr size_t kMember = PgrMemberIndex("cgroups"), kIo = PgrMemberIndex("cgroup_io");
constexpr size_t kLevels = kCgroupFields.size() - kCgroupCounters;

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

// The disk of row "PATH:DEV" of cgroup_io when PATH is `group`, else "".
std::string_view DiskOf(std::string_view row, std::string_view group) {
  size_t colon = row.rfind(':');
  if (colon == std::string_view::npos || row.substr(0, colon) != group) return {};
  return row.substr(colon + 1);
}

// The group's rows of cgroup_io ("PATH:DEV"): {"vda":{"riops":..,...},...}.
void DevicesJson(std::string& out, std::string_view group, const Pair& p) {
  const double s = p.interval;
  const MemberRows &prev = p.prev.members[kIo], &cur = p.cur.members[kIo];
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
  if (!p.Both(kMember)) return;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  out.append(",\"cgroups\":{");
  for (size_t i = 0; i < cur.rows(); ++i) {
    if (out.back() != '{') out.push_back(',');
    AppendJsonKey(out, cur.names[i]);
    RowDelta d = DeltaOf(prev, cur, i, kLevels);
    if (!d.present) {
      out.append("null");
      continue;
    }
    GroupJson(out, d, p.interval);
    if (p.Both(kIo)) {
      out.pop_back();  // the group's '}'
      DevicesJson(out, cur.names[i], p);
      out.push_back('}');
    }
  }
  out.push_back('}');
}

void SummaryJson(std::string& out, const Pair& p) {
  if (p.rated()) Play(out, p);
}

void Line(std::string& out, std::string_view label, double v, std::string_view unit) {
  out.append(label);
  AppendFixed(out, v, 2);
  out.append(unit).push_back('\n');
}

// "       vda: read 1.00 MB, write 2.00 MB" per disk of cgroup_io.
void DeviceLines(std::string& out, std::string_view group, const Pair& p) {
  if (!p.Both(kIo)) return;
  const MemberRows &prev = p.prev.members[kIo], &cur = p.cur.members[kIo];
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
  if (!p.rated() || !p.Both(kMember)) return;
  const double s = p.interval, mb = 1024.0 * 1024.0;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  for (size_t i = 0; i < cur.rows(); ++i) {
    out.append("* Cgroup ").append(cur.names[i]).push_back('\n');
    const RowDelta v = DeltaOf(prev, cur, i, kLevels);
    if (!v.present) {
      out.append("  not present at both ends of the span\n\n");
      continue;
    }
    auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
    Line(out, "        CPU usage: ", PerSecond(v[kUsage] / 1e6, s), " cores");
    Line(out, "             %usr: ", pct(kUser), " %");
    Line(out, "             %sys: ", pct(kSystem), " %");
    Line(out, "        throttled: ", pct(kThrottled), " %");
    Line(out, "        read IOPS: ", PerSecond(v[kRios], s), "");
    Line(out, "       write IOPS: ", PerSecond(v[kWios], s), "");
    Line(out, "      read amount: ", v[kRbytes] / mb, " MB");
    Line(out, "     write amount: ", v[kWbytes] / mb, " MB");
    DeviceLines(out, cur.names[i], p);
    Line(out, "   memory current: ", v[kMemCurrent] / mb, " MB (last sample)");
    Line(out, "    pressure: cpu some ", pct(kCpuSome), " %");
    Line(out, "               io some ", pct(kIoSome), " %");
    Line(out, "           memory some ", pct(kMemSome), " %");
    out.push_back('\n');
  }
}

}  // namespace

// cgroup_io's rows ("PATH:DEV", io.stat per disk) show in each group's
// "devices".
extern const Report kCgroupReport;
constexpr Report kCgroupReport = {
    .play = Play,
    .summary_text = SummaryText,
    .summary_json = SummaryJson,
    .phases = &kCounterGaps,
    .csv = nullptr,
    .openmetrics = nullptr,
    .plot = nullptr,
    .live = nullptr,
};

}  // namespace pm
