// The two clocks: CLOCK_REALTIME for what a sample says to people,
// CLOCK_MONOTONIC for every interval and deadline (it never jumps).
#pragma once

#include <time.h>

#include <cstdint>

namespace pm {

inline int64_t NowNs(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}
inline int64_t NowRealtimeNs() { return NowNs(CLOCK_REALTIME); }
inline int64_t NowMonoNs() { return NowNs(CLOCK_MONOTONIC); }

}  // namespace pm
