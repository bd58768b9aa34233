#include "playback/zero_width.hh"

#include <algorithm>
#include <span>

#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

constexpr size_t kCpu = PgrMemberIndex("cpu");

// The counters CPU shares divide by (cpu_report.cc: user nice system idle
// iowait irq softirq steal, the first eight of kCpuFields; guest time is
// inside user).
constexpr size_t kTickFields = 8;
static_assert(kCpuFields[kTickFields - 1] == "steal");

// The ticks between two CPU totals, or -1 when a counter went backwards
// (a reset is no zero width).
int64_t TicksBetween(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  int64_t sum = 0;
  for (size_t i = 0; i < kTickFields; ++i) {
    if (b[i] < a[i]) return -1;
    sum += static_cast<int64_t>(b[i] - a[i]);
  }
  return sum;
}

// The rule on what it reads of two samples: their times, and their CPU
// totals (empty when a sample has none).
bool TooClose(int64_t a_ns, std::span<const uint64_t> a_cpu, int64_t b_ns,
              std::span<const uint64_t> b_cpu) {
  int64_t dt = b_ns - a_ns;
  if (a_cpu.empty() || b_cpu.empty()) return dt == 0;
  return dt >= 0 && dt < ZeroWidthFilter::kTickNs && TicksBetween(a_cpu, b_cpu) == 0;
}

// The "all" row of the cpu member, when the sample carries it.
std::span<const uint64_t> CpuTotal(const RawSample& s) {
  const MemberRows& cpu = s.members[kCpu];
  if (!cpu.has || cpu.rows() == 0 || !cpu.live(0) || cpu.width < kTickFields) return {};
  return cpu.row(0);
}

}  // namespace

bool ZeroWidth(const RawSample& a, const RawSample& b) {
  return TooClose(a.time_ns, CpuTotal(a), b.time_ns, CpuTotal(b));
}

bool ZeroWidthFilter::TooClose(const RawSample& s) const {
  std::span<const uint64_t> prev;
  if (prev_has_cpu_) prev = prev_cpu_;
  return pm::TooClose(prev_ns_, prev, s.time_ns, CpuTotal(s));
}

bool ZeroWidthFilter::Keep(const RawSample& s) {
  if (have_prev_ && TooClose(s)) {
    ++left_out_;
    return false;
  }
  have_prev_ = true;
  prev_ns_ = s.time_ns;
  std::span<const uint64_t> cpu = CpuTotal(s);
  prev_has_cpu_ = !cpu.empty();
  if (prev_has_cpu_) std::copy_n(cpu.begin(), kTickFields, prev_cpu_.begin());
  return true;
}

}  // namespace pm
