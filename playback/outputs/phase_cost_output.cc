// phase_cost.hh's blocks in summary's text and JSON.
#include <cstdio>

#include "playback/outputs/phase_cost.hh"
#include "playback/reports/rates.hh"
#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

constexpr double kMB = 1024.0 * 1024.0;

std::string Printf(const char* format, double a, double b = 0, double c = 0) {
  char buf[96];
  std::snprintf(buf, sizeof buf, format, a, b, c);
  return buf;
}

void ProcessLine(std::string& out, const NamedProcess& n, std::string figures) {
  out.append(Printf("    %7.0f %6.0f ", n.pid, n.uid)).append(figures).append("  ");
  AppendPrintable(out, n.comm);
  out.append("  ");
  AppendPrintable(out, n.cgroup.empty() ? "-" : n.cgroup);
  out.push_back('\n');
}

void CpuLines(std::string& out, const PhaseEveryone& e) {
  out.append("  CPU: system under test ").append(Printf("%.6f sec", e.sut_cpu_s));
  out.append(Printf(", named others %.3f sec, perfmonger %.3f sec", e.foreign_cpu_s,
                    e.recorder_cpu_s));
  if (e.remainder_cpu_s) out.append(Printf(", unnamed %.2f sec", *e.remainder_cpu_s));
  if (e.machine_cpu_s) out.append(Printf("   (machine busy: %.2f sec)", *e.machine_cpu_s));
  out.append("\n  Top CPU:     PID    UID  %CORE  ONSET  COMM  CGROUP\n");
  for (const NamedProcess& n : e.top_cpu)
    ProcessLine(out, n, Printf("%6.1f %5.2fs", n.cpu_s / e.seconds * 100.0, n.onset_s));
  if (e.top_groups.empty()) return;
  out.append("  Top cgroups: %CORE  PROCESSES  READ_MB  WRITE_MB  CGROUP\n");
  for (const NamedGroup& g : e.top_groups) {
    out.append(Printf("    %11.1f %10.0f ", g.cpu_s / e.seconds * 100.0, g.processes));
    out.append(Printf("%8.2f %9.2f  ", g.read_bytes / kMB, g.write_bytes / kMB));
    AppendPrintable(out, g.cgroup);
    out.push_back('\n');
  }
}

void IoLines(std::string& out, const PhaseEveryone& e) {
  out.append(Printf("  I/O: system under test %.2f MB, others %.2f MB", e.sut_bytes / kMB,
                    e.foreign_bytes / kMB));
  if (e.disk_bytes) out.append(Printf("   (disks: %.2f MB", *e.disk_bytes / kMB));
  if (e.disk_busy_s) out.append(Printf(", busiest busy %.3f sec)", *e.disk_busy_s));
  else if (e.disk_bytes) out.push_back(')');
  out.append("\n  Top I/O:     PID    UID  READ_MB  WRITE_MB  COMM  CGROUP\n");
  for (const NamedProcess& n : e.top_io)
    ProcessLine(out, n, Printf("%8.2f %9.2f", n.read_bytes / kMB, n.write_bytes / kMB));
}

void ProcessJson(std::string& out, const NamedProcess& n, double seconds) {
  JsonObjectWriter o(out);
  o.Uint("pid", n.pid).Uint("uid", n.uid).Str("comm", n.comm).Str("cgroup", n.cgroup);
  AppendFixed(o.Key("cpu_sec"), n.cpu_s, 6);
  AppendFixed(o.Key("cpu_pct"), seconds > 0 ? n.cpu_s / seconds * 100.0 : 0.0, 2);
  AppendFixed(o.Key("onset_sec"), n.onset_s, 2);
  if (n.io_known) o.Uint("read_bytes", n.read_bytes).Uint("write_bytes", n.write_bytes);
  o.Close();
}

void ProcessesJson(std::string& out, const std::vector<NamedProcess>& list, double seconds) {
  out.push_back('[');
  for (const NamedProcess& n : list) {
    if (out.back() != '[') out.push_back(',');
    ProcessJson(out, n, seconds);
  }
  out.push_back(']');
}

void GroupsJson(std::string& out, const std::vector<NamedGroup>& list, double seconds) {
  out.push_back('[');
  for (const NamedGroup& g : list) {
    if (out.back() != '[') out.push_back(',');
    JsonObjectWriter o(out);
    o.Str("cgroup", g.cgroup);
    AppendFixed(o.Key("cpu_sec"), g.cpu_s, 6);
    AppendFixed(o.Key("cpu_pct"), seconds > 0 ? g.cpu_s / seconds * 100.0 : 0.0, 2);
    o.Uint("processes", g.processes).Uint("read_bytes", g.read_bytes);
    o.Uint("write_bytes", g.write_bytes).Uint("busiest_pid", g.busiest.pid);
    o.Close();
  }
  out.push_back(']');
}

template <class T>
void Optional(JsonObjectWriter& o, std::string_view key, const std::optional<T>& v, int digits) {
  if (v) AppendFixed(o.Key(key), static_cast<double>(*v), digits);
}

}  // namespace

void AppendEveryoneText(std::string& out, const PhaseEveryone& e, const Verdict& v) {
  if (e.scanned) {
    out.append(Printf("* Everyone else (the later scan began %.3f ms after its instant)\n",
                      e.scan_lag_ns / 1e6));
    CpuLines(out, e);
    IoLines(out, e);
    if (std::optional<double> io = ForeignIoPct(e))
      out.append(Printf("  Foreign I/O: %.1f %% of the time\n", *io));
  }
  if (e.steal_pct) out.append(Printf("  CPU steal: %.2f %%\n", *e.steal_pct));
  if (e.cpu_some_pct) out.append(Printf("  PSI cpu some: %.2f %%\n", *e.cpu_some_pct));
  out.append("Verdict: ").append(v.Line()).append("\n\n");
}

void AppendEveryoneJson(std::string& out, const PhaseEveryone& e, const Verdict& v) {
  if (e.scanned) {
    out.append(",\"everyone\":");
    JsonObjectWriter o(out);
    o.Int("scan_lag_ns", e.scan_lag_ns);
    AppendFixed(o.Key("sut_cpu_sec"), e.sut_cpu_s, 6);
    AppendFixed(o.Key("named_cpu_sec"), e.foreign_cpu_s, 6);
    AppendFixed(o.Key("perfmonger_cpu_sec"), e.recorder_cpu_s, 6);
    Optional(o, "unnamed_cpu_sec", e.remainder_cpu_s, 2);
    Optional(o, "machine_cpu_sec", e.machine_cpu_s, 2);
    o.Uint("sut_bytes", e.sut_bytes).Uint("named_bytes", e.foreign_bytes);
    if (e.disk_bytes) o.Uint("disk_bytes", *e.disk_bytes);
    Optional(o, "disk_busy_sec", e.disk_busy_s, 3);
    Optional(o, "foreign_io_pct", ForeignIoPct(e), 2);
    ProcessesJson(o.Key("top_cpu"), e.top_cpu, e.seconds);
    ProcessesJson(o.Key("top_io"), e.top_io, e.seconds);
    GroupsJson(o.Key("top_cgroups"), e.top_groups, e.seconds);
    o.Close();
  }
  out.append(",\"verdict\":");
  JsonObjectWriter o(out);
  o.Bool("noisy", v.noisy);
  std::string& reasons = o.Key("reasons");
  reasons.push_back('[');
  for (const std::string& r : v.reasons) {
    if (reasons.back() != '[') reasons.push_back(',');
    AppendJsonString(reasons, r);
  }
  reasons.push_back(']');
  Optional(o, "steal_pct", e.steal_pct, 2);
  Optional(o, "psi_cpu_some_pct", e.cpu_some_pct, 2);
  o.Str("line", v.Line());
  o.Close();
}

}  // namespace pm
