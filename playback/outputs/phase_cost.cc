#include "playback/outputs/phase_cost.hh"

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "playback/reports/cpu_report.hh"
#include "playback/reports/disk_report.hh"
#include "playback/reports/process_report.hh"
#include "playback/reports/rates.hh"
#include "playback/reading/scan_event.hh"
#include "proto/json.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/text.hh"

namespace pm {
namespace {

constexpr size_t kTop = 5;
constexpr int64_t kTickNs = 10'000'000;  // /proc/PID/stat's start time: USER_HZ 100
const size_t kPressure = MemberIndexOf("pressure");
const size_t kDisk = MemberIndexOf("disk");
const size_t kCgroups = MemberIndexOf("cgroups");

uint64_t Key(const ScannedProcess& p) { return (p.start << 22) ^ p.pid; }

// Who is the system under test in one scan: the "sut" pids, those below
// them, those in a recorded cgroup; never the recorder.
class SutSet {
 public:
  SutSet(const ScanEvent& scan, const std::vector<uint32_t>& roots,
         const std::vector<std::string>& cgroups, uint32_t recorder)
      : roots_(roots.begin(), roots.end()), cgroups_(cgroups), recorder_(recorder) {
    for (const ScannedProcess& p : scan.processes) parent_[p.pid] = p.ppid;
  }
  bool Contains(const ScannedProcess& p) const {
    if (p.pid == recorder_) return false;
    for (const std::string& g : cgroups_)
      if (p.cgroup == g || (p.cgroup.starts_with(g) && p.cgroup[g.size()] == '/')) return true;
    uint32_t pid = p.pid;
    for (int depth = 0; depth < 64 && pid > 1; ++depth) {
      if (roots_.contains(pid)) return true;
      if (pid == recorder_) return false;  // the recorder's children are not the caller's work
      auto it = parent_.find(pid);
      if (it == parent_.end()) return false;
      pid = it->second;
    }
    return false;
  }
  bool IsRoot(uint32_t pid) const { return roots_.contains(pid); }

 private:
  std::unordered_set<uint32_t> roots_;
  const std::vector<std::string>& cgroups_;
  uint32_t recorder_;
  std::unordered_map<uint32_t, uint32_t> parent_;
};

// The recorded --cgroup groups, as absolute paths below the mount.
std::vector<std::string> SutCgroups(const Pair& p) {
  std::vector<std::string> out;
  for (const std::string& name : p.cur.members[kCgroups].names)
    out.push_back(name.starts_with('/') ? name : "/" + name);
  return out;
}

// A root of the system under test is counted by its procs row (exactly,
// with its reaped children); the processes below it, by the scans.
void Account(PhaseEveryone& e, NamedProcess n, bool sut, bool root, bool recorder) {
  if (recorder) e.recorder_cpu_s += n.cpu_s;
  if (sut && !root) {
    e.sut_cpu_s += n.cpu_s;
    e.sut_bytes += n.read_bytes + n.write_bytes;
  }
  if (sut || recorder) return;
  e.foreign_cpu_s += n.cpu_s;
  e.foreign_bytes += n.read_bytes + n.write_bytes;
  e.top_cpu.push_back(n);
}

// The processes the `pid` command added: their rows in the later scan over
// the earlier one's (or over what they had when named).
void AccountAdded(PhaseEveryone& e, const ScanEvent& begin, const ScanEvent& end) {
  for (const NamedScanRow& n : end.added) {
    const std::array<uint64_t, 7>* base = &n.from;
    for (const NamedScanRow& b : begin.added)
      if (b.pid == n.pid && b.start == n.start) base = &b.now;
    auto delta = [&](size_t i) { return n.now[i] - std::min((*base)[i], n.now[i]); };
    e.sut_cpu_s += delta(0) / 1e9;
    e.sut_bytes += delta(2) + delta(3);
  }
}

// Every process of the later scan over the earlier one.
void Compare(PhaseEveryone& e, const ScanEvent& begin, const ScanEvent& end, const Pair& p,
             const RecordingInfo& info) {
  std::unordered_map<uint64_t, const ScannedProcess*> before;
  for (const ScannedProcess& q : begin.processes) before[Key(q)] = &q;
  std::vector<uint32_t> roots = begin.sut;
  roots.insert(roots.end(), end.sut.begin(), end.sut.end());
  for (const NamedScanRow& n : end.added) roots.push_back(n.pid);  // counted by AccountAdded
  const std::vector<std::string> cgroups = SutCgroups(p);
  const uint32_t recorder = static_cast<uint32_t>(info.pid);
  SutSet sut(end, roots, cgroups, recorder);
  for (const ScannedProcess& q : end.processes) {
    auto it = before.find(Key(q));
    const ScannedProcess* b = it == before.end() ? nullptr : it->second;
    NamedProcess n{q.pid, q.uid, q.comm, q.cgroup};
    n.cpu_s = (q.cpu_ns - (b ? std::min(b->cpu_ns, q.cpu_ns) : 0)) / 1e9;
    n.io_known = q.read_bytes && q.write_bytes && (!b || (b->read_bytes && b->write_bytes));
    if (n.io_known) {
      n.read_bytes = *q.read_bytes - (b ? std::min(*b->read_bytes, *q.read_bytes) : 0);
      n.write_bytes = *q.write_bytes - (b ? std::min(*b->write_bytes, *q.write_bytes) : 0);
    }
    const int64_t born = static_cast<int64_t>(q.start) * kTickNs - p.prev.mono_ns;
    n.onset_s = b || born < 0 ? 0.0 : born / 1e9;
    const bool in_sut = sut.Contains(q), root = sut.IsRoot(q.pid);
    Account(e, std::move(n), in_sut, root, q.pid == recorder);
  }
}

void KeepTop(PhaseEveryone& e) {
  std::vector<NamedProcess>& all = e.top_cpu;
  std::erase_if(all, [](const NamedProcess& n) {
    return n.cpu_s <= 0 && n.read_bytes + n.write_bytes == 0;
  });
  e.top_io = all;
  auto by_cpu = [](const NamedProcess& a, const NamedProcess& b) { return a.cpu_s > b.cpu_s; };
  auto by_io = [](const NamedProcess& a, const NamedProcess& b) {
    return a.read_bytes + a.write_bytes > b.read_bytes + b.write_bytes;
  };
  std::sort(all.begin(), all.end(), by_cpu);
  std::sort(e.top_io.begin(), e.top_io.end(), by_io);
  std::erase_if(all, [](const NamedProcess& n) { return n.cpu_s <= 0; });
  std::erase_if(e.top_io, [](const NamedProcess& n) { return n.read_bytes + n.write_bytes == 0; });
  if (all.size() > kTop) all.resize(kTop);
  if (e.top_io.size() > kTop) e.top_io.resize(kTop);
  if (!all.empty() && e.seconds > 0) e.max_cpu_pct = all.front().cpu_s / e.seconds * 100.0;
}

// The machine's side: busy CPU, steal, the disks, PSI.
void Machine(PhaseEveryone& e, const Pair& p) {
  if (p.Both(MemberIndexOf("cpu"))) {
    e.machine_cpu_s = BusyCpuSeconds(p);
    e.steal_pct = MeanUsage(p).steal;
  }
  if (p.Both(kDisk)) {
    const DiskSectors s = TotalSectors(p);
    e.disk_bytes = static_cast<uint64_t>(s.read + s.written) * 512;
    double busiest = 0;
    const MemberRows& cur = p.cur.members[kDisk];
    for (size_t i = 0; i < cur.rows(); ++i) {
      const RowDelta d = DeltaOf(p.prev.members[kDisk], cur, i, 0);
      if (d.present) busiest = std::max(busiest, d[9] / 1000.0);  // io_ms
    }
    e.disk_busy_s = busiest;
  }
  const RowDelta some = NamedDelta(p, kPressure, "cpu.some", 0);
  if (some.present && e.seconds > 0) e.cpu_some_pct = some[0] / 1e6 / e.seconds * 100.0;
}

void Reason(Verdict& v, std::string what, double pct, std::string_view after = {}) {
  v.noisy = true;
  v.reasons.push_back(std::move(what.append(Percent(pct)).append(after)));
}

}  // namespace

std::string Percent(double pct) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %%", pct);
  return buf;
}

std::string CpuReason(const NamedProcess& n, double seconds) {
  std::string r;
  AppendPrintable(r, n.comm);
  r.append(" (pid ").append(std::to_string(n.pid)).append(") used ");
  r.append(Percent(n.cpu_s / seconds * 100.0)).append(" of a core");
  if (n.onset_s > 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " from %.2f s", n.onset_s);
    r.append(buf);
  }
  return r;
}

std::optional<double> ForeignIoPct(const PhaseEveryone& e) {
  if (!e.disk_busy_s || !e.disk_bytes || *e.disk_bytes == 0 || e.seconds <= 0) return {};
  double share = std::min(1.0, static_cast<double>(e.foreign_bytes) / *e.disk_bytes);
  return *e.disk_busy_s * share / e.seconds * 100.0;
}

PhaseEveryone MeasureEveryone(const SpanScans& scans, const Pair& pair,
                              const RecordingInfo& info) {
  PhaseEveryone e;
  e.seconds = pair.interval;
  const ProcessRowsTotal rows = ProcessRowsOver(pair);
  e.sut_cpu_s = rows.cpu_s;
  e.sut_bytes = rows.bytes;
  Machine(e, pair);
  if (scans.begin && scans.end && scans.begin != scans.end && pair.rated()) {
    e.scanned = true;
    e.scan_lag_ns = scans.end->lag_ns;
    Compare(e, *scans.begin, *scans.end, pair, info);
    AccountAdded(e, *scans.begin, *scans.end);
    GroupForeign(e);
    KeepTop(e);
    if (e.machine_cpu_s)
      e.remainder_cpu_s =
          std::max(0.0, *e.machine_cpu_s - e.sut_cpu_s - e.foreign_cpu_s - e.recorder_cpu_s);
  }
  return e;
}

Verdict Judge(const PhaseEveryone& e, const NoiseThresholds& t) {
  Verdict v;
  if (e.seconds <= 0) return v;
  std::vector<std::string_view> judged;  // groups with a reason of their own
  for (const NamedGroup& g : e.top_groups)
    if (g.cpu_s / e.seconds * 100.0 >= t.cpu_pct) {
      v.noisy = true;
      v.reasons.push_back(GroupReason(g, e.seconds));
      judged.push_back(g.cgroup);
    }
  for (const NamedProcess& n : e.top_cpu)
    if (n.cpu_s / e.seconds * 100.0 >= t.cpu_pct &&
        std::find(judged.begin(), judged.end(), n.cgroup) == judged.end()) {
      v.noisy = true;
      v.reasons.push_back(CpuReason(n, e.seconds));
    }
  if (e.remainder_cpu_s && *e.remainder_cpu_s / e.seconds * 100.0 >= t.cpu_pct)
    Reason(v, "processes that came and went used ", *e.remainder_cpu_s / e.seconds * 100.0,
           " of a core");
  if (std::optional<double> io = ForeignIoPct(e); io && *io >= t.io_pct)
    Reason(v, "I/O outside the system under test kept the disks busy ", *io, " of the time");
  if (e.steal_pct && *e.steal_pct >= t.steal_pct) Reason(v, "CPU steal ", *e.steal_pct);
  if (e.cpu_some_pct && *e.cpu_some_pct >= t.pressure_pct)
    Reason(v, "PSI cpu some ", *e.cpu_some_pct);
  return v;
}

std::optional<SpanVerdict> JudgeSpan(const RawSample& first, const RawSample& end,
                                     const SpanScans& scans, const RecordingInfo& info,
                                     const NoiseThresholds& t) {
  if (!scans.begin || !scans.end) return std::nullopt;
  ReportOptions options;
  options.recorded = &info.recorded;
  Pair pair(first, end, TimeOrigin::Of(first), options);
  SpanVerdict out;
  out.everyone = MeasureEveryone(scans, pair, info);
  out.verdict = Judge(out.everyone, t);
  return out;
}

std::string Verdict::Line() const {
  if (!noisy) return "CLEAN";
  std::string out = "NOISY: ";
  for (size_t i = 0; i < reasons.size(); ++i) out.append(i ? "; " : "").append(reasons[i]);
  return out;
}

}  // namespace pm
