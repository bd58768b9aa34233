// The kernel clock's discipline as a test reads it itself, with
// adjtimex(2), independently of the recorder's code: the oracle the
// recorded clock states are held to (pgr(5)).
#pragma once

#include <doctest/doctest.h>
#include <sys/timex.h>

#include <algorithm>
#include <cstdint>

namespace pm::test {

struct KernelClock {
  bool synced = false;
  int64_t offset_ns = 0, maxerror_us = 0, esterror_us = 0;
  bool operator==(const KernelClock&) const = default;
};

inline KernelClock ReadKernelClock() {
  struct timex tx {};
  int rc = ::adjtimex(&tx);
  REQUIRE(rc >= 0);
  return {rc != TIME_ERROR && !(tx.status & STA_UNSYNC),
          (tx.status & STA_NANO) ? int64_t{tx.offset} : int64_t{tx.offset} * 1000,
          tx.maxerror, tx.esterror};
}

// `got` was read between the test's calls `before` and `after`: each value
// is one the kernel held in that span (exact while nothing changed;
// maxerror grows 500 µs a second until a daemon resets it).
inline void CheckHeldBetween(const KernelClock& got, const KernelClock& before,
                             const KernelClock& after) {
  auto between = [](int64_t v, int64_t a, int64_t b) {
    return std::min(a, b) <= v && v <= std::max(a, b);
  };
  CHECK((got.synced == before.synced || got.synced == after.synced));
  CHECK(between(got.offset_ns, before.offset_ns, after.offset_ns));
  CHECK(between(got.maxerror_us, before.maxerror_us, after.maxerror_us));
  CHECK(between(got.esterror_us, before.esterror_us, after.esterror_us));
}

}  // namespace pm::test
