#include "playback/proc_table_json.hh"

#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

// `part` of `interval_ns`, in percent.
double Pct(uint64_t part_ns, int64_t interval_ns) {
  return interval_ns > 0 ? 100.0 * static_cast<double>(part_ns) / static_cast<double>(interval_ns)
                         : 0.0;
}

void Rate(JsonObjectWriter& o, std::string_view key, const std::optional<uint64_t>& bytes,
          int64_t interval_ns) {
  if (!bytes || interval_ns <= 0) {
    o.Raw(key, "null");
    return;
  }
  AppendFixed(o.Key(key), static_cast<double>(*bytes) / 1024 / (static_cast<double>(interval_ns) / 1e9), 2);
}

void AppendRow(std::string& out, const ProcTableRow& r, int64_t interval_ns) {
  JsonObjectWriter o(out);
  o.Uint("pid", r.pid).Uint("ppid", r.ppid).Uint("uid", r.uid);
  o.Str("comm", r.comm).Str("cmd", r.cmd).Str("cgroup", r.cgroup).Bool("new", r.appeared);
  AppendFixed(o.Key("cpu"), Pct(r.cpu_ns, interval_ns), 2);
  AppendFixed(o.Key("usr"), Pct(r.utime_us * 1000, interval_ns), 2);
  AppendFixed(o.Key("sys"), Pct(r.stime_us * 1000, interval_ns), 2);
  AppendFixed(o.Key("run_wait"), Pct(r.run_wait_ns, interval_ns), 2);
  Rate(o, "rkbyteps", r.read_bytes, interval_ns);
  Rate(o, "wkbyteps", r.write_bytes, interval_ns);
  o.Uint("rss_kb", r.rss_kb).Uint("threads", r.threads);
  o.Close();
}

}  // namespace

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
