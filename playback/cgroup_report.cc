// "cgroups" in play and summary, per group (row: PATH as recorded):
//   {"cores":..,"cpu":..,"usr":..,"sys":..,            cores used; % of one core
//    "throttledps":..,"throttled_pct":..,
//    "riops":..,"wiops":..,"rkbyteps":..,"wkbyteps":.., io.stat, all devices
//    "pgmajfaultps":..,
//    "memory_current_kb":N,"anon_kb":N,"file_kb":N,     levels: the later sample
//    "pressure":{"cpu":{"some":..,"full":..},"io":{..},"memory":{..}}}
// A group gone (removed) in either sample of a pair is null.
#include "playback/rates.hh"
#include "proto/json.hh"

namespace pm {
namespace {

using namespace cgroup_field;
using Field = size_t;
static_assert(kCgroupFields.size() == kFile + 1);

double PerSecond(double v, double seconds) { return seconds > 0 ? v / seconds : 0.0; }

void Fixed(std::string& out, std::string_view key, double v) {
  if (out.back() != '{') out.push_back(',');
  AppendJsonKey(out, key);
  AppendFixed(out, v, 2);
}

void Kb(std::string& out, std::string_view key, double bytes) {
  out.push_back(',');
  AppendJsonKey(out, key);
  AppendUint(out, static_cast<uint64_t>(bytes) / 1024);
}

void PressureJson(std::string& out, const std::vector<double>& v, double s) {
  auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
  out.append(",\"pressure\":{\"cpu\":{");
  Fixed(out, "some", pct(kCpuSome));
  Fixed(out, "full", pct(kCpuFull));
  out.append("},\"io\":{");
  Fixed(out, "some", pct(kIoSome));
  Fixed(out, "full", pct(kIoFull));
  out.append("},\"memory\":{");
  Fixed(out, "some", pct(kMemSome));
  Fixed(out, "full", pct(kMemFull));
  out.append("}}");
}

void GroupJson(std::string& out, const std::vector<double>& v, double s) {
  auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
  out.push_back('{');
  Fixed(out, "cores", PerSecond(v[kUsage] / 1e6, s));
  Fixed(out, "cpu", pct(kUsage));
  Fixed(out, "usr", pct(kUser));
  Fixed(out, "sys", pct(kSystem));
  Fixed(out, "throttledps", PerSecond(v[kNrThrottled], s));
  Fixed(out, "throttled_pct", pct(kThrottled));
  Fixed(out, "riops", PerSecond(v[kRios], s));
  Fixed(out, "wiops", PerSecond(v[kWios], s));
  Fixed(out, "rkbyteps", PerSecond(v[kRbytes] / 1024.0, s));
  Fixed(out, "wkbyteps", PerSecond(v[kWbytes] / 1024.0, s));
  Fixed(out, "pgmajfaultps", PerSecond(v[kMajflt], s));
  Kb(out, "memory_current_kb", v[kMemCurrent]);
  Kb(out, "anon_kb", v[kAnon]);
  Kb(out, "file_kb", v[kFile]);
  PressureJson(out, v, s);
  out.push_back('}');
}

void PlayJson(std::string& out, const TableDelta& t, double seconds) {
  out.push_back('{');
  for (const RowDelta& d : t.rows) {
    if (out.back() != '{') out.push_back(',');
    AppendJsonKey(out, d.name);
    if (d.present) GroupJson(out, d.values, seconds);
    else out.append("null");
  }
  out.push_back('}');
}

void SummaryJson(std::string& out, const TableDelta& t, const PairRates& r) {
  PlayJson(out, t, r.interval);
}

void Line(std::string& out, std::string_view label, double v, std::string_view unit) {
  out.append(label);
  AppendFixed(out, v, 2);
  out.append(unit).push_back('\n');
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
    Line(out, "   memory current: ", v[kMemCurrent] / mb, " MB (last sample)");
    Line(out, "    pressure: cpu some ", pct(kCpuSome), " %");
    Line(out, "               io some ", pct(kIoSome), " %");
    Line(out, "           memory some ", pct(kMemSome), " %");
    out.push_back('\n');
  }
}

}  // namespace

const RowReport kCgroupReport = {"cgroups", PlayJson, SummaryJson, SummaryText};

}  // namespace pm
