// What the spawn tests wait for, each bounded by a deadline of seconds:
// a pipe's bytes to EOF, a child's exit.
#pragma once

#include <doctest/doctest.h>
#include <unistd.h>

#include <string>

#include "common/clock.hh"
#include "common/deadline.hh"
#include "common/spawn.hh"
#include "test/deadlines.h"

namespace pm {

inline constexpr int64_t kDeadlineNs = int64_t{PM_TEST_DEADLINE_MS} * 1'000'000;

inline std::string ReadToEof(int fd) {
  std::string text;
  char buf[512];
  for (;;) {
    REQUIRE(WaitForFd(fd, POLLIN, NowMonoNs() + kDeadlineNs));
    ssize_t n = read(fd, buf, sizeof buf);
    REQUIRE(n >= 0);
    if (n == 0) return text;
    text.append(buf, static_cast<size_t>(n));
  }
}

// The child's wait status, once it has exited; reaped.
inline int WaitExit(SpawnedChild& child) {
  REQUIRE(WaitForFd(child.pidfd.Get(), POLLIN, NowMonoNs() + kDeadlineNs));
  int status = -1;
  REQUIRE(ReapChild(child.pid, &status, nullptr));
  return status;
}

}  // namespace pm
