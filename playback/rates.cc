// PerfMonger's usage functions (core/subsystem/usage.go), operation for
// operation: counters are differenced as Go's int64, converted to float64,
// then divided in the formula's order, so every `%.2f` rounds the same.
#include "playback/rates.hh"

#include <algorithm>

#include "proto/json.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

// cur − prev as Go's int64 subtraction, except that a counter that went
// backwards was reset (a device re-attached, a 32-bit NIC counter that
// wrapped): the pair counts nothing for it, never a negative rate. One
// rule for every counter (pgr(5), "Counters"); PerfMonger's own recordings
// never go backwards, so its outputs are unchanged.
constexpr size_t kIntrM = PgrMemberIndex("intr");

int64_t Delta(uint64_t prev, uint64_t cur) {
  return cur < prev ? 0 : static_cast<int64_t>(cur - prev);
}

void ComputeIntr(const MemberRows& prev, const MemberRows& cur, double itv, IntrRates& r) {
  const size_t ncpu = cur.width;
  r.core_dev_intr.assign(ncpu, 0.0);
  r.core_sys_intr.assign(ncpu, 0.0);
  for (size_t i = 0; i < cur.rows(); ++i) {
    size_t a = prev.Find(cur.names[i], i);
    if (!cur.live(i) || a == MemberRows::npos || !prev.live(a)) continue;
    auto& sums = IsNumbered(cur.names[i]) ? r.core_dev_intr : r.core_sys_intr;
    std::span<const uint64_t> b = cur.row(i), p = prev.row(a);
    for (size_t c = 0; c < b.size() && c < p.size(); ++c)
      sums[c] += static_cast<double>(Delta(p[c], b[c])) / itv;
  }
}

// A section the pair lacks reads as a fresh PairRates' would (empty, zero),
// whatever an earlier pair left in `r`; the vectors keep their memory.
void ClearAbsent(PairRates& r) {
  if (!r.has_intr) {
    r.intr.core_dev_intr.clear();
    r.intr.core_sys_intr.clear();
  }
}

}  // namespace

double GoSeconds(int64_t ns) {
  constexpr int64_t kSecond = 1000000000;
  return static_cast<double>(ns / kSecond) +
         static_cast<double>(ns % kSecond) / 1e9;
}

double ElapsedSeconds(int64_t t_ns, int64_t origin_ns) {
  return (static_cast<double>(t_ns) - static_cast<double>(origin_ns)) / 1e9;
}

RowDelta DeltaOf(const MemberRows& prev, const MemberRows& cur, size_t row, size_t levels) {
  RowDelta d;
  size_t p = prev.Find(cur.names[row], row);
  d.present = cur.live(row) && p != MemberRows::npos && prev.live(p);
  if (!d.present) return d;
  std::span<const uint64_t> c = cur.row(row), b = prev.row(p);
  const size_t counters = c.size() > levels ? c.size() - levels : 0;
  for (size_t k = 0; k < c.size() && k < kMaxRowFields; ++k) {
    uint64_t before = k < b.size() ? b[k] : 0;
    d.values[k] = k >= counters ? static_cast<double>(c[k])
                  : c[k] < before ? 0.0  // a reset: nothing counted, never < 0
                                  : static_cast<double>(c[k] - before);
  }
  return d;
}

double PerSecond(double v, double seconds) { return seconds > 0 ? v / seconds : 0.0; }

void AppendFixedMember(std::string& out, std::string_view key, double v) {
  if (out.back() != '{') out.push_back(',');
  AppendJsonKey(out, key);
  AppendFixed(out, v, 2);
}

void AppendUintMember(std::string& out, std::string_view key, uint64_t v) {
  if (out.back() != '{') out.push_back(',');
  AppendJsonKey(out, key);
  AppendUint(out, v);
}

bool IsNumbered(std::string_view irq) {
  return !irq.empty() && irq.find_first_not_of("0123456789") == std::string_view::npos;
}

void ComputeRates(const RawSample& prev, const RawSample& cur, int64_t first_time_ns,
                  const RateOptions& /*options*/, PairRates& r) {
  r.time = static_cast<double>(cur.time_ns) / 1e9;
  r.elapsed_time = ElapsedSeconds(cur.time_ns, first_time_ns);
  r.interval = GoSeconds(cur.time_ns - prev.time_ns);
  auto both = [&](size_t m) { return prev.members[m].has && cur.members[m].has; };
  r.has_intr = both(kIntrM);
  if (r.has_intr) ComputeIntr(prev.members[kIntrM], cur.members[kIntrM], r.interval, r.intr);
  ClearAbsent(r);
}

PairRates ComputeRates(const RawSample& prev, const RawSample& cur,
                       int64_t first_time_ns, const RateOptions& options) {
  PairRates r;
  ComputeRates(prev, cur, first_time_ns, options, r);
  return r;
}

}  // namespace pm
