#include "playback/outputs/proc_top.hh"

#include <algorithm>
#include <cstdio>

#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

uint64_t ByCpu(const ProcTotal& p) { return p.cpu_ns; }
uint64_t ByIo(const ProcTotal& p) { return p.io_bytes(); }

void Accumulate(ProcTotal& t, const ProcTableRow& r) {
  t.last = r;
  t.cpu_ns += r.cpu_ns, t.utime_us += r.utime_us, t.stime_us += r.stime_us;
  t.run_wait_ns += r.run_wait_ns;
  if (r.read_bytes && r.write_bytes) {
    t.io = true;
    t.read_bytes += *r.read_bytes, t.write_bytes += *r.write_bytes;
  }
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// One process's line of the text block.
void AppendTextRow(std::string& out, const ProcTotal& p, double covered_s) {
  char buf[160];
  const double cpu = static_cast<double>(p.cpu_ns) / 1e9;
  std::snprintf(buf, sizeof buf, "%8u %-15s %9.3f %6.1f %8.2f %8.2f %8.3f ", p.last.pid,
                Printable(p.last.comm).c_str(), cpu, covered_s > 0 ? 100 * cpu / covered_s : 0.0,
                static_cast<double>(p.utime_us) / 1e6, static_cast<double>(p.stime_us) / 1e6,
                static_cast<double>(p.run_wait_ns) / 1e9);
  out.append(buf);
  if (p.io)
    std::snprintf(buf, sizeof buf, "%10llu %10llu ",
                  static_cast<unsigned long long>(p.read_bytes / 1024),
                  static_cast<unsigned long long>(p.write_bytes / 1024));
  else
    std::snprintf(buf, sizeof buf, "%10s %10s ", "-", "-");
  out.append(buf).append(Printable(p.last.cmd)).push_back('\n');
}

void AppendTextTable(std::string& out, const ProcTable& t, size_t n, const char* by,
                     uint64_t (*key)(const ProcTotal&)) {
  std::vector<const ProcTotal*> top = t.Top(n, key);
  out.append("Busiest processes by ").append(by).append(" (").append(std::to_string(top.size()));
  out.append(" of ").append(std::to_string(t.procs.size())).append(" that ran):\n");
  out.append("     PID COMM               CPU(s)   %CPU   usr(s)   sys(s)  wait(s)"
             "    read KB   write KB CMD\n");
  for (const ProcTotal* p : top) AppendTextRow(out, *p, t.covered_s());
}

void AppendJsonRow(std::string& out, const ProcTotal& p, double covered_s) {
  JsonObjectWriter o(out);
  o.Uint("pid", p.last.pid).Uint("ppid", p.last.ppid).Uint("uid", p.last.uid);
  o.Str("comm", p.last.comm).Str("cmd", p.last.cmd).Str("cgroup", p.last.cgroup);
  const double cpu = static_cast<double>(p.cpu_ns) / 1e9;
  o.Raw("cpu_s", Fixed(cpu, 6)).Raw("cpu_pct", Fixed(covered_s > 0 ? 100 * cpu / covered_s : 0, 2));
  o.Raw("usr_s", Fixed(static_cast<double>(p.utime_us) / 1e6, 2));
  o.Raw("sys_s", Fixed(static_cast<double>(p.stime_us) / 1e6, 2));
  o.Raw("run_wait_s", Fixed(static_cast<double>(p.run_wait_ns) / 1e9, 6));
  if (p.io) o.Uint("read_bytes", p.read_bytes).Uint("write_bytes", p.write_bytes);
  else o.Raw("read_bytes", "null").Raw("write_bytes", "null");
  o.Close();
}

void AppendJsonTable(std::string& out, const ProcTable& t, size_t n,
                     uint64_t (*key)(const ProcTotal&)) {
  out.push_back('[');
  for (const ProcTotal* p : t.Top(n, key)) {
    if (out.back() != '[') out.push_back(',');
    AppendJsonRow(out, *p, t.covered_s());
  }
  out.push_back(']');
}

}  // namespace

void ProcTable::Add(const ProcTableEvent& e, int64_t mono_ns) {
  if (lines++ == 0) first_since = e.since_mono_ns;
  last_mono = mono_ns;
  brief_utime_us += e.brief_utime_us, brief_stime_us += e.brief_stime_us;
  for (const ProcTableRow& r : e.rows) Accumulate(procs[{r.pid, r.start}], r);
}

std::vector<const ProcTotal*> ProcTable::Top(size_t n, uint64_t (*key)(const ProcTotal&)) const {
  std::vector<const ProcTotal*> all;
  for (const auto& [id, total] : procs)
    if (key(total) > 0) all.push_back(&total);
  auto busier = [key](const ProcTotal* a, const ProcTotal* b) {
    return key(*a) != key(*b) ? key(*a) > key(*b) : a->last.pid < b->last.pid;
  };
  const size_t k = std::min(n, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<ptrdiff_t>(k), all.end(), busier);
  all.resize(k);
  return all;
}

void ProcTop::OnEvent(const RecordingEvent& e) {
  if (e.kind == "mark" && split_) phases_.emplace_back().label = e.label;
  if (e.kind != "procs" || !e.procs) return;
  whole_.Add(*e.procs, e.mono_ns);
  if (split_) phases_.back().Add(*e.procs, e.mono_ns);
}

std::string ProcTopText(const ProcTable& t, size_t n) {
  if (t.lines == 0) return "No process table (record with --record-procs)\n\n";
  std::string out;
  AppendTextTable(out, t, n, "CPU", ByCpu);
  AppendTextTable(out, t, n, "I/O", ByIo);
  out.append("Processes too brief to be seen twice (and the last moments of those that\n"
             "exited): usr ")
      .append(Fixed(static_cast<double>(t.brief_utime_us) / 1e6, 2))
      .append(" s, sys ")
      .append(Fixed(static_cast<double>(t.brief_stime_us) / 1e6, 2));
  out.append(" s (USER_HZ ticks: 10 ms)\n");
  out.append("Over ").append(Fixed(t.covered_s(), 3)).append(" sec; CPU(s) and %CPU from each "
                                                            "process's CPU clock (ns), usr/sys "
                                                            "in ticks\n\n");
  return out;
}

std::string ProcTopJson(const ProcTable& t, size_t n) {
  std::string out = "\"top\":{\"cpu\":";
  AppendJsonTable(out, t, n, ByCpu);
  out.append(",\"io\":");
  AppendJsonTable(out, t, n, ByIo);
  out.append(",\"brief\":{\"usr_s\":").append(Fixed(static_cast<double>(t.brief_utime_us) / 1e6, 2));
  out.append(",\"sys_s\":").append(Fixed(static_cast<double>(t.brief_stime_us) / 1e6, 2));
  out.append("},\"covered_time\":").append(Fixed(t.covered_s(), 3)).append("}");
  return out;
}

}  // namespace pm
