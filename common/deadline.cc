#include "common/deadline.hh"

#include <signal.h>

#include <algorithm>
#include <cerrno>

#include "common/clock.hh"
#include "common/error.hh"

namespace pm {

int PollUntil(struct pollfd* fds, nfds_t count, int64_t deadline_ns) noexcept {
  for (;;) {
    struct timespec left_ts;
    struct timespec* timeout = nullptr;
    if (deadline_ns != kNoDeadline) {
      int64_t left = std::max<int64_t>(deadline_ns - NowMonoNs(), 0);
      left_ts = {static_cast<time_t>(left / 1'000'000'000),
                 static_cast<long>(left % 1'000'000'000)};
      timeout = &left_ts;
    }
    int n = ppoll(fds, count, timeout, nullptr);
    if (n >= 0 || errno != EINTR) return n;
  }
}

bool WaitForFd(int fd, short events, int64_t deadline_ns) {
  struct pollfd p = {fd, events, 0};
  int n = PollUntil(&p, 1, deadline_ns);
  if (n < 0) throw SystemError("poll");
  return n > 0;
}

void PauseUntil(int64_t deadline_ns, int64_t step_ns) {
  int64_t now = NowMonoNs();
  int64_t until = step_ns >= deadline_ns - now ? deadline_ns : now + step_ns;
  PollUntil(nullptr, 0, until);
}

}  // namespace pm
