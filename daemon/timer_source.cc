#include "daemon/timer_source.hh"

#include <sys/timerfd.h>
#include <unistd.h>

#include <cerrno>

#include "common/error.hh"
#include "daemon/clock.hh"

namespace pm {
namespace {

UniqueFd MakeTimerFd() {
  int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
  if (fd < 0) throw SystemError("timerfd_create");
  return UniqueFd::Adopt(fd);
}

struct timespec ToTimespec(int64_t ns) {
  return {static_cast<time_t>(ns / 1'000'000'000),
          static_cast<long>(ns % 1'000'000'000)};
}

}  // namespace

TimerSource::TimerSource(uv_loop_t& loop, Handler& handler)
    : PollWatcher(loop), handler_(handler), fd_(MakeTimerFd()) {
  Watch(fd_.Get(), UV_READABLE);
}

void TimerSource::Arm(int64_t first_mono_ns, int64_t period_ns) {
  // An absolute time of 0 would disarm the timer: fire at once instead.
  struct itimerspec spec = {ToTimespec(period_ns),
                            ToTimespec(first_mono_ns > 0 ? first_mono_ns : 1)};
  if (timerfd_settime(fd_.Get(), TFD_TIMER_ABSTIME, &spec, nullptr) != 0)
    throw SystemError("timerfd_settime");
}

void TimerSource::Disarm() {
  struct itimerspec spec = {};
  if (timerfd_settime(fd_.Get(), 0, &spec, nullptr) != 0)
    throw SystemError("timerfd_settime");
}

void TimerSource::OnPoll(int status, int) noexcept {
  if (status < 0) return handler_.OnSourceError("timerfd", -status);
  uint64_t expirations = 0;
  ssize_t n;
  do {
    n = ::read(fd_.Get(), &expirations, sizeof expirations);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof expirations) && expirations > 0)
    handler_.OnTimer(*this, expirations);
  else if (n < 0 && errno != EAGAIN)
    handler_.OnSourceError("timerfd", errno);
}

}  // namespace pm

namespace pm {
namespace {

class RealClock final : public Clock {
 public:
  int64_t RealtimeNs() override { return NowRealtimeNs(); }
  int64_t MonoNs() override { return NowMonoNs(); }
  std::unique_ptr<Timer> MakeTimer(uv_loop_t& loop, TimerHandler& handler) override {
    return std::make_unique<TimerSource>(loop, handler);
  }
};

}  // namespace

Clock& SystemClock() {
  static RealClock clock;
  return clock;
}

}  // namespace pm
