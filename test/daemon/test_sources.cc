// The recorder's event sources, stepped in-process on a real uv loop: each
// waits on its fd, and the loop runs until the event under test arrives.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include <cstdint>
#include <optional>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/clock.hh"
#include "daemon/signal_source.hh"
#include "daemon/stop_source.hh"
#include "daemon/timer_source.hh"
#include "test/deadlines.h"

namespace {

constexpr int64_t kMs = 1'000'000;

// A loop that closes its handles before it goes away.
struct Loop {
  uv_loop_t loop;
  Loop() { REQUIRE(uv_loop_init(&loop) == 0); }
  ~Loop() {
    uv_run(&loop, UV_RUN_DEFAULT);
    CHECK(uv_loop_close(&loop) == 0);
  }
  // Runs one blocking iteration at a time until `done`; a source that
  // never fires fails the test at the deadline.
  template <class Done> void RunUntil(Done done) {
    int64_t deadline = pm::NowMonoNs() + PM_TEST_DEADLINE_MS * kMs;
    while (!done() && pm::NowMonoNs() < deadline) uv_run(&loop, UV_RUN_ONCE);
    REQUIRE(done());
  }
};

struct Events : pm::TimerSource::Handler, pm::SignalSource::Handler,
                pm::StopSource::Handler {
  uint64_t expirations = 0;
  int calls = 0;
  int signo = 0;
  bool stopped = false;
  void OnTimer(pm::Timer&, uint64_t n) noexcept override {
    expirations += n;
    ++calls;
  }
  void OnSignal(int s) noexcept override { signo = s; }
  void OnStopFd() noexcept override { stopped = true; }
  void OnSourceError(const char*, int) noexcept override {}
};

}  // namespace

TEST_CASE("a late timer reports every missed deadline in one wake-up") {
  Loop l;
  Events ev;
  pm::TimerSource timer(l.loop, static_cast<pm::TimerSource::Handler&>(ev));
  // The schedule began five periods ago: no burst, one call, six deadlines.
  int64_t period = 50 * kMs;
  timer.Arm(pm::NowMonoNs() - 5 * period, period);
  l.RunUntil([&] { return ev.calls > 0; });
  CHECK(ev.calls == 1);
  CHECK(ev.expirations >= 6);
  timer.Close();
}

TEST_CASE("a one-shot deadline fires once") {
  Loop l;
  Events ev;
  pm::TimerSource timer(l.loop, static_cast<pm::TimerSource::Handler&>(ev));
  timer.Arm(pm::NowMonoNs() + kMs, 0);
  l.RunUntil([&] { return ev.calls > 0; });
  CHECK(ev.expirations == 1);
  timer.Close();
}

TEST_CASE("SIGTERM arrives as a loop event") {
  Loop l;
  Events ev;
  pm::SignalSource signals(l.loop, static_cast<pm::SignalSource::Handler&>(ev));
  REQUIRE(kill(getpid(), SIGTERM) == 0);
  l.RunUntil([&] { return ev.signo != 0; });
  CHECK(ev.signo == SIGTERM);
  signals.Close();
}

TEST_CASE("the stop fd: data is ignored, EOF stops, flags stay the parent's") {
  Loop l;
  Events ev;
  pm::Pipe pipe = pm::MakePipe();
  int read_end = pipe.read_end.Get();
  int flags_before = fcntl(read_end, F_GETFL);
  pm::StopSource stop(l.loop, static_cast<pm::StopSource::Handler&>(ev),
                      std::move(pipe.read_end), "--stop-fd");
  CHECK(fcntl(read_end, F_GETFL) == flags_before);
  CHECK((flags_before & O_NONBLOCK) == 0);

  pm::WriteAll(pipe.write_end.Get(), "ignored bytes\n");
  uv_run(&l.loop, UV_RUN_NOWAIT);
  CHECK_FALSE(ev.stopped);

  pipe.write_end.Reset();
  l.RunUntil([&] { return ev.stopped; });
  stop.Close();
}

TEST_CASE("the stop fd on a socket: EOF at shutdown, no O_NONBLOCK added") {
  int sv[2];
  REQUIRE(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  pm::UniqueFd ours = pm::UniqueFd::Adopt(sv[0]);
  Loop l;
  Events ev;
  pm::StopSource stop(l.loop, static_cast<pm::StopSource::Handler&>(ev),
                      pm::UniqueFd::Adopt(sv[1]), "--stop-fd");
  CHECK((fcntl(sv[1], F_GETFL) & O_NONBLOCK) == 0);
  ours.Reset();
  l.RunUntil([&] { return ev.stopped; });
  stop.Close();
}

TEST_CASE("a stop fd that cannot be polled is a usage error") {
  Loop l;
  Events ev;
  pm::UniqueFd null = pm::OpenAt(AT_FDCWD, "/dev/null", O_RDONLY);
  CHECK_THROWS_AS(pm::StopSource(l.loop, static_cast<pm::StopSource::Handler&>(ev),
                                 std::move(null), "--stop-fd"),
                  pm::UsageError);
}
