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
#include "proto/json.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

using namespace cgroup_field;
using Field = size_t;
static_assert(kCgroupFields.size() == kFile + 1);

void Kb(std::string& out, std::string_view key, double bytes) {
  AppendUintMember(out, key, static_cast<uint64_t>(bytes) / 1024);
}

void PressureJson(std::string& out, const std::vector<double>& v, double s) {
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
void DevicesJson(std::string& out, std::string_view group, const PairRates& r) {
  const double s = r.interval;
  out.append(",\"devices\":{");
  for (const RowDelta& d : r.tables[MemberIndex("cgroup_io")].rows) {
    size_t colon = d.name.rfind(':');
    if (colon == std::string::npos || std::string_view(d.name).substr(0, colon) != group) continue;
    if (out.back() != '{') out.push_back(',');
    AppendJsonKey(out, std::string_view(d.name).substr(colon + 1));
    if (!d.present) {
      out.append("null");
      continue;
    }
    out.push_back('{');
    AppendFixedMember(out, "riops", PerSecond(d.values[2], s));
    AppendFixedMember(out, "wiops", PerSecond(d.values[3], s));
    AppendFixedMember(out, "rkbyteps", PerSecond(d.values[0] / 1024.0, s));
    AppendFixedMember(out, "wkbyteps", PerSecond(d.values[1] / 1024.0, s));
    out.push_back('}');
  }
  out.push_back('}');
}

void GroupJson(std::string& out, const std::vector<double>& v, double s) {
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

void PlayJson(std::string& out, const TableDelta& t, const PairRates& r) {
  out.push_back('{');
  for (const RowDelta& d : t.rows) {
    if (out.back() != '{') out.push_back(',');
    AppendJsonKey(out, d.name);
    if (!d.present) {
      out.append("null");
      continue;
    }
    GroupJson(out, d.values, r.interval);
    if (r.tables[MemberIndex("cgroup_io")].has) {
      out.pop_back();  // the group's '}'
      DevicesJson(out, d.name, r);
      out.push_back('}');
    }
  }
  out.push_back('}');
}

void SummaryJson(std::string& out, const TableDelta& t, const PairRates& r) {
  PlayJson(out, t, r);
}

void Line(std::string& out, std::string_view label, double v, std::string_view unit) {
  out.append(label);
  AppendFixed(out, v, 2);
  out.append(unit).push_back('\n');
}

// "       vda: read 1.00 MB, write 2.00 MB" per disk of cgroup_io.
void DeviceLines(std::string& out, std::string_view group, const PairRates& r) {
  for (const RowDelta& d : r.tables[MemberIndex("cgroup_io")].rows) {
    size_t colon = d.name.rfind(':');
    if (!d.present || colon == std::string::npos ||
        std::string_view(d.name).substr(0, colon) != group)
      continue;
    std::string label(std::string_view(d.name).substr(colon + 1));
    if (label.size() < 15) out.append(15 - label.size(), ' ');
    out.append(label).append(": read ");
    AppendFixed(out, d.values[0] / 1024.0 / 1024.0, 2);
    out.append(" MB, write ");
    AppendFixed(out, d.values[1] / 1024.0 / 1024.0, 2);
    out.append(" MB\n");
  }
}

// * Cgroup PATH
//        CPU usage: 1.23 cores (usr 100.00 %, sys 23.00 %)
void SummaryText(std::string& out, const TableDelta& t, const PairRates& r) {
  const double s = r.interval, mb = 1024.0 * 1024.0;
  for (const RowDelta& d : t.rows) {
    out.append("* Cgroup ").append(d.name).push_back('\n');
    if (!d.present) {
      out.append("  not present at both ends of the span\n\n");
      continue;
    }
    const std::vector<double>& v = d.values;
    auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
    Line(out, "        CPU usage: ", PerSecond(v[kUsage] / 1e6, s), " cores");
    Line(out, "             %usr: ", pct(kUser), " %");
    Line(out, "             %sys: ", pct(kSystem), " %");
    Line(out, "        throttled: ", pct(kThrottled), " %");
    Line(out, "        read IOPS: ", PerSecond(v[kRios], s), "");
    Line(out, "       write IOPS: ", PerSecond(v[kWios], s), "");
    Line(out, "      read amount: ", v[kRbytes] / mb, " MB");
    Line(out, "     write amount: ", v[kWbytes] / mb, " MB");
    DeviceLines(out, d.name, r);
    Line(out, "   memory current: ", v[kMemCurrent] / mb, " MB (last sample)");
    Line(out, "    pressure: cpu some ", pct(kCpuSome), " %");
    Line(out, "               io some ", pct(kIoSome), " %");
    Line(out, "           memory some ", pct(kMemSome), " %");
    out.push_back('\n');
  }
}

}  // namespace

const RowReport kCgroupReport = {"cgroups", PlayJson, SummaryJson, SummaryText};
// Its rows ("PATH:DEV", io.stat per device) show in each group's "devices".
const RowReport kCgroupIoReport = {"cgroup_io", nullptr, nullptr, nullptr, true};

}  // namespace pm
