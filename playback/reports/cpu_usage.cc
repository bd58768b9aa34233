// The machine's CPU arithmetic (cpu_report.hh): PerfMonger's from ticks,
// and the finer one from member cpu_fine where the header names its sources.
#include <algorithm>
#include <array>
#include <span>
#include <string>

#include "playback/reports/cpu_report.hh"
#include "playback/reports/rates.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/cpu.hh"

namespace pm {
namespace {

const size_t kCpu = MemberIndexOf("cpu"), kFine = MemberIndexOf("cpu_fine");
enum CpuField { kUser, kNice, kSys, kIdle, kIowait, kIrq, kSoft, kSteal, kGuest, kGuestNice };
static_assert(kCpuFields[kGuestNice] == "guest_nice" && kCpuFields[kIrq] == "irq");
namespace ff = cpu_fine_field;


using Ticks = std::array<int64_t, kCpuFields.size()>;

Ticks TickDeltas(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  Ticks d{};
  for (size_t i = 0; i < d.size(); ++i) d[i] = CounterDelta(a[i], b[i]);
  return d;
}

// PerfMonger's: percent of one CPU between two rows; T = 0 (no tick
// passed, or every counter reset) gives all zeros, not measured.
CpuUsage TickUsage(const Ticks& d) {
  int64_t t = d[kUser] + d[kNice] + d[kSys] + d[kIowait] + d[kSteal] + d[kIrq] + d[kSoft] +
              d[kIdle];
  if (t == 0) return {.measured = false};
  auto item = [&](int64_t delta) {
    return static_cast<double>(delta) / static_cast<double>(t) * 100.0;
  };
  CpuUsage u;
  u.usr = std::max(0.0, item(d[kUser] - d[kGuest]));
  u.nice = std::max(0.0, item(d[kNice] - d[kGuestNice]));
  u.sys = item(d[kSys]);
  u.idle = item(d[kIdle]);
  u.iowait = item(d[kIowait]);
  u.hardirq = item(d[kIrq]);
  u.softirq = item(d[kSoft]);
  u.steal = item(d[kSteal]);
  u.guest = item(d[kGuest]);
  u.guestnice = item(d[kGuestNice]);
  return u;
}

// Which of cpu_fine's fields the header's sources give for a row.
struct Coverage {
  bool busy = false, user = false, nice = false, system = false, idle = false;
};

Coverage CoverageOf(const RecordingInfo* info, bool all) {
  Coverage c;
  if (info == nullptr) return c;
  const std::string_view rows = all ? "all" : "cores";
  for (const SeriesSource& s : info->sources) {
    if (s.member != kFine) continue;
    c.busy |= s.Covers(kCpuFineFields[ff::kBusy], rows);
    c.user |= s.Covers(kCpuFineFields[ff::kUser], rows);
    c.nice |= s.Covers(kCpuFineFields[ff::kNice], rows);
    c.system |= s.Covers(kCpuFineFields[ff::kSystem], rows);
    c.idle |= s.Covers(kCpuFineFields[ff::kIdle], rows);
  }
  return c;
}

// One row's finer deltas over the pair, in ns.
struct Fine {
  Coverage has;
  std::array<int64_t, kCpuFineFields.size()> d{};
  // A counter of CPU time moved (run_delay_ns is not one).
  bool Moved() const {
    return d[ff::kBusy] != 0 || d[ff::kUser] != 0 || d[ff::kNice] != 0 ||
           d[ff::kSystem] != 0 || d[ff::kIdle] != 0;
  }
};

// `shares` of `total`: each weight's part, in order; none weighed: all to
// the first.
template <size_t N>
std::array<double, N> Split(double total, const std::array<int64_t, N>& weights) {
  std::array<double, N> out{};
  int64_t sum = 0;
  for (int64_t w : weights) sum += std::max<int64_t>(0, w);
  if (sum == 0) {
    out[0] = total;
    return out;
  }
  for (size_t i = 0; i < N; ++i)
    out[i] = total * static_cast<double>(std::max<int64_t>(0, weights[i])) / static_cast<double>(sum);
  return out;
}

// The busy time `b` (ns) into the modes, by the cgroup root's classes
// where recorded, the ticks within them.
void SplitBusy(const Ticks& t, const Fine& f, double b, CpuUsage& u) {
  const int64_t usr = t[kUser] - t[kGuest], nice = t[kNice] - t[kGuestNice];
  const bool classes = f.has.user && f.has.system &&
                       f.d[ff::kBusy] + f.d[ff::kUser] + f.d[ff::kSystem] > 0;
  if (!classes) {
    auto m = Split<8>(b, {usr, nice, t[kSys], t[kIrq], t[kSoft], t[kSteal], t[kGuest],
                          t[kGuestNice]});
    u.usr = m[0], u.nice = m[1], u.sys = m[2], u.hardirq = m[3], u.softirq = m[4];
    u.steal = m[5], u.guest = m[6], u.guestnice = m[7];
    return;
  }
  const double user = static_cast<double>(f.d[ff::kUser]);
  const double system = static_cast<double>(f.d[ff::kSystem]);
  const double usage = static_cast<double>(f.d[ff::kBusy]);
  const double steal = std::max(0.0, usage - user - system);
  const double whole = user + system + steal;
  const double k = whole > 0 ? b / whole : 0.0;
  double nice_part = 0;
  if (f.has.nice) {
    nice_part = std::min(user, static_cast<double>(f.d[ff::kNice]));
  } else {
    nice_part = Split<2>(user, {nice + t[kGuestNice], usr + t[kGuest]})[0];
    if (nice + t[kGuestNice] <= 0) nice_part = 0;
  }
  auto us = Split<2>((user - nice_part) * k, {usr, t[kGuest]});
  auto ni = Split<2>(nice_part * k, {nice, t[kGuestNice]});
  auto sy = Split<3>(system * k, {t[kSys], t[kIrq], t[kSoft]});
  u.usr = us[0], u.guest = us[1], u.nice = ni[0], u.guestnice = ni[1];
  u.sys = sy[0], u.hardirq = sy[1], u.softirq = sy[2], u.steal = steal * k;
}

// The finer arithmetic over capacity `c` ns; false when the row's finer
// counters cannot say (then the ticks do).
bool FineUsage(const Ticks& t, const Fine& f, double c, CpuUsage& u) {
  const int64_t busy_ticks = t[kUser] + t[kNice] + t[kSys] + t[kIrq] + t[kSoft] + t[kSteal];
  const int64_t idle_ticks = t[kIdle] + t[kIowait];
  double b = 0;
  if (f.has.busy) {
    if (f.d[ff::kBusy] == 0 && busy_ticks > 0 && !f.has.user) return false;  // a run not yet ended
    b = static_cast<double>(f.d[ff::kBusy]);
  } else if (f.has.idle) {
    if (f.d[ff::kIdle] == 0 && idle_ticks > 0) return false;  // an idle period not yet ended
    b = c - static_cast<double>(f.d[ff::kIdle]);
  } else {
    return false;
  }
  if (!f.Moved() && busy_ticks + idle_ticks == 0) {
    u = {.measured = false};
    return true;
  }
  b = std::clamp(b, 0.0, c);
  SplitBusy(t, f, b, u);
  auto idle = Split<2>(c - b, {t[kIdle], t[kIowait]});
  u.idle = idle[0], u.iowait = idle[1];
  for (double* m : {&u.usr, &u.nice, &u.sys, &u.idle, &u.iowait, &u.hardirq, &u.softirq,
                    &u.steal, &u.guest, &u.guestnice})
    *m = *m / c * 100.0;
  return true;
}

bool Live(const MemberRows& a, const MemberRows& b, size_t row) {
  return a.has && b.has && row < a.rows() && row < b.rows() && a.live(row) && b.live(row);
}

// Row `row` ("all" is 0) of cpu_fine over the pair, when usable.
bool FineOf(const Pair& p, size_t row, Fine& f) {
  if (p.options.legacy || !Live(p.prev.members[kFine], p.cur.members[kFine], row)) return false;
  f.has = CoverageOf(p.options.info, row == 0);
  if (!f.has.busy && !f.has.idle) return false;
  std::span<const uint64_t> a = p.prev.members[kFine].row(row), b = p.cur.members[kFine].row(row);
  for (size_t i = 0; i < f.d.size(); ++i) f.d[i] = CounterDelta(a[i], b[i]);
  return true;
}

// Usage of row `row` ("all" is 0); not measured when offline in either sample.
CpuUsage RowUsage(const Pair& p, size_t row) {
  const MemberRows &a = p.prev.members[kCpu], &b = p.cur.members[kCpu];
  if (!Live(a, b, row)) return {.measured = false};
  const Ticks t = TickDeltas(a.row(row), b.row(row));
  const int64_t mono = p.cur.mono_ns - p.prev.mono_ns;
  Fine f;
  if (p.prev.mono_ns > 0 && mono > 0 && FineOf(p, row, f)) {
    const double cores = row == 0 ? static_cast<double>(NumCore(p)) : 1.0;
    CpuUsage u;
    if (FineUsage(t, f, static_cast<double>(mono) * cores, u)) return u;
  }
  return TickUsage(t);
}

}  // namespace

bool IsNull(const CpuUsage& u, const Pair& p) { return !u.measured && !p.options.legacy; }

size_t NumCore(const Pair& p) {
  const MemberRows& cur = p.cur.members[kCpu];
  return cur.has && cur.rows() > 0 ? cur.rows() - 1 : 0;
}

CpuUsage AllUsage(const Pair& p) {
  CpuUsage u = RowUsage(p, 0);
  const double n = static_cast<double>(NumCore(p));
  for (double* f : {&u.usr, &u.nice, &u.sys, &u.idle, &u.iowait, &u.hardirq, &u.softirq,
                    &u.steal, &u.guest, &u.guestnice})
    *f *= n;
  return u;
}

CpuUsage CoreUsage(const Pair& p, size_t core) { return RowUsage(p, core + 1); }

CpuUsage MeanUsage(const Pair& p) { return RowUsage(p, 0); }

bool HasCore(const Pair& p, size_t core) {
  return Live(p.prev.members[kCpu], p.cur.members[kCpu], core + 1);
}

double BusyCpuSeconds(const Pair& p) {
  if (!p.Both(kCpu)) return 0.0;
  const CpuUsage a = AllUsage(p);
  if (!a.measured) return 0.0;
  double busy = static_cast<double>(NumCore(p)) * 100.0 - a.idle - a.iowait;
  return busy > 0 ? busy / 100.0 * p.interval : 0.0;
}

}  // namespace pm
