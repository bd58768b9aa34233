// The one "wait until a deadline" of the project: poll() on fds (pipes,
// pidfds) with an absolute CLOCK_MONOTONIC deadline, restarted after EINTR
// with the time left. Deadlines are NowMonoNs() + a duration, in ns;
// std::chrono::steady_clock counts on the same clock.
#pragma once

#include <poll.h>

#include <cstdint>

namespace pm {

inline constexpr int64_t kNoDeadline = INT64_MAX;

// Polls `fds` until one has an event or `deadline_ns` passes. Returns the
// number of fds with events (revents set), 0 at the deadline, or -1 with
// errno (never EINTR). No exceptions: the C embedding library uses it.
int PollUntil(struct pollfd* fds, nfds_t count, int64_t deadline_ns) noexcept;

// True when `fd` reports one of `events` (or HUP/ERR) by the deadline,
// false at the deadline; throws SystemError if poll fails.
bool WaitForFd(int fd, short events, int64_t deadline_ns);

// Waits without fds until `deadline_ns` or `step_ns` from now, whichever is
// first: the pause between two checks of a state no fd reports (a process
// table entry), never a substitute for waiting on an fd.
void PauseUntil(int64_t deadline_ns, int64_t step_ns);

}  // namespace pm
