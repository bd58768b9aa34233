#include "playback/outputs/proc_table_json.hh"

#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

// `part` of `interval_ns`, in percent.
double Pct(uint64_t part_ns, int64_t interval_ns) {
  return interval_ns > 0 ? 100.0 * static_cast<double>(part_ns) / static_cast<double>(interval_ns)
                         : 0.0;
}

std::optional<double> KbPerS(const std::optional<uint64_t>& bytes, int64_t interval_ns) {
  if (!bytes || interval_ns <= 0) return std::nullopt;
  return static_cast<double>(*bytes) / 1024 / (static_cast<double>(interval_ns) / 1e9);
}

void Rate(JsonObjectWriter& o, std::string_view key, const std::optional<double>& kbps) {
  if (kbps) AppendFixed(o.Key(key), *kbps, 2);
  else o.Raw(key, "null");
}

void AppendRow(std::string& out, const ProcTableRow& r, int64_t interval_ns) {
  JsonObjectWriter o(out);
  o.Uint("pid", r.pid).Uint("ppid", r.ppid).Uint("uid", r.uid);
  o.Str("comm", r.comm).Str("cmd", r.cmd).Str("cgroup", r.cgroup).Bool("new", r.appeared);
  const ProcRowRates rates = RatesOf(r, interval_ns);
  AppendFixed(o.Key("cpu"), rates.cpu, 2);
  AppendFixed(o.Key("usr"), rates.usr, 2);
  AppendFixed(o.Key("sys"), rates.sys, 2);
  AppendFixed(o.Key("run_wait"), rates.run_wait, 2);
  Rate(o, "rkbyteps", rates.rkbyteps);
  Rate(o, "wkbyteps", rates.wkbyteps);
  o.Uint("rss_kb", r.rss_kb).Uint("threads", r.threads);
  o.Close();
}

}  // namespace

ProcRowRates RatesOf(const ProcTableRow& r, int64_t interval_ns) {
  return {Pct(r.cpu_ns, interval_ns), Pct(r.utime_us * 1000, interval_ns),
          Pct(r.stime_us * 1000, interval_ns), Pct(r.run_wait_ns, interval_ns),
          KbPerS(r.read_bytes, interval_ns), KbPerS(r.write_bytes, interval_ns)};
}

void AppendProcTablePlay(std::string& out, const ProcTableEvent& e, int64_t mono_ns) {
  const int64_t interval_ns = mono_ns - e.since_mono_ns;
  out.append(",\"proctable\":[");
  for (size_t i = 0; i < e.rows.size(); ++i) {
    if (i) out.push_back(',');
    AppendRow(out, e.rows[i], interval_ns);
  }
  out.push_back(']');
  if (!e.exited.empty()) {
    out.append(",\"proctable_exited\":[");
    for (size_t i = 0; i < e.exited.size(); ++i) {
      if (i) out.push_back(',');
      AppendUint(out, e.exited[i]);
    }
    out.push_back(']');
  }
  out.append(",\"proctable_brief\":{\"usr\":");
  AppendFixed(out, Pct(e.brief_utime_us * 1000, interval_ns), 2);
  out.append(",\"sys\":");
  AppendFixed(out, Pct(e.brief_stime_us * 1000, interval_ns), 2);
  out.push_back('}');
}

}  // namespace pm
