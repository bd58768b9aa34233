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

}  // namespace

bool ZeroWidthFilter::TooClose(const RawSample& s) const {
  int64_t dt = s.time_ns - prev_ns_;
  if (!prev_has_cpu_ || !s.has_cpu || !s.cpu_total_present) return dt == 0;
  return dt >= 0 && dt < kTickNs && TicksBetween(prev_cpu_, s.cpu_total) == 0;
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
