#include "playback/zero_width.hh"

namespace pm {
namespace {

// The ticks CPU shares divide by (rates.cc: user nice system idle iowait
// irq softirq steal; guest time is inside user), or -1 when a counter
// went backwards (a reset is no zero width).
int64_t TicksBetween(const CpuCounters& a, const CpuCounters& b) {
  int64_t sum = 0;
  for (size_t i = 0; i < 8; ++i) {
    if (b[i] < a[i]) return -1;
    sum += static_cast<int64_t>(b[i] - a[i]);
  }
  return sum;
}

// The rule on what it reads of two samples: their times, and their CPU
// totals (null when a sample has none).
bool TooClose(int64_t a_ns, const CpuCounters* a_cpu, int64_t b_ns, const CpuCounters* b_cpu) {
  int64_t dt = b_ns - a_ns;
  if (a_cpu == nullptr || b_cpu == nullptr) return dt == 0;
  return dt >= 0 && dt < ZeroWidthFilter::kTickNs && TicksBetween(*a_cpu, *b_cpu) == 0;
}

const CpuCounters* CpuTotal(const RawSample& s) {
  return s.has_cpu && s.cpu_total_present ? &s.cpu_total : nullptr;
}

}  // namespace

bool ZeroWidth(const RawSample& a, const RawSample& b) {
  return TooClose(a.time_ns, CpuTotal(a), b.time_ns, CpuTotal(b));
}

bool ZeroWidthFilter::TooClose(const RawSample& s) const {
  return pm::TooClose(prev_ns_, prev_has_cpu_ ? &prev_cpu_ : nullptr, s.time_ns, CpuTotal(s));
}

bool ZeroWidthFilter::Keep(const RawSample& s) {
  if (have_prev_ && TooClose(s)) {
    ++left_out_;
    return false;
  }
  have_prev_ = true;
  prev_ns_ = s.time_ns;
  prev_has_cpu_ = s.has_cpu && s.cpu_total_present;
  prev_cpu_ = s.cpu_total;
  return true;
}

}  // namespace pm
