// PollUntil: returns at once on a ready fd, never before its deadline
// otherwise, and a signal in between does not end the wait early.
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/time.h>

#include "common/clock.hh"
#include "common/deadline.hh"
#include "common/io.hh"

namespace pm {
namespace {

void NoOp(int) {}

TEST_SUITE("deadline") {
  TEST_CASE("a ready fd: at once, whatever the deadline") {
    Pipe pipe = MakePipe();
    WriteAll(pipe.write_end.Get(), "x");
    struct pollfd p = {pipe.read_end.Get(), POLLIN, 0};
    CHECK(PollUntil(&p, 1, kNoDeadline) == 1);
    CHECK((p.revents & POLLIN));
    CHECK(WaitForFd(pipe.read_end.Get(), POLLIN, NowMonoNs()));  // already past
  }

  TEST_CASE("nothing ready: 0, not before the deadline") {
    Pipe pipe = MakePipe();
    int64_t deadline = NowMonoNs() + 30'000'000;
    CHECK_FALSE(WaitForFd(pipe.read_end.Get(), POLLIN, deadline));
    CHECK(NowMonoNs() >= deadline);
  }

  TEST_CASE("EINTR: the wait goes on with the time left") {
    struct sigaction action = {}, old = {};
    action.sa_handler = NoOp;  // no SA_RESTART: poll fails with EINTR
    sigaction(SIGALRM, &action, &old);
    struct itimerval timer = {};
    timer.it_value.tv_usec = 5'000;  // well before the deadline
    setitimer(ITIMER_REAL, &timer, nullptr);
    Pipe pipe = MakePipe();
    int64_t deadline = NowMonoNs() + 60'000'000;
    struct pollfd p = {pipe.read_end.Get(), POLLIN, 0};
    CHECK(PollUntil(&p, 1, deadline) == 0);
    CHECK(NowMonoNs() >= deadline);
    sigaction(SIGALRM, &old, nullptr);
  }

  TEST_CASE("PauseUntil stops at the deadline even with a longer step") {
    int64_t deadline = NowMonoNs() + 5'000'000;
    PauseUntil(deadline, 1'000'000'000);
    CHECK(NowMonoNs() >= deadline);
  }
}

}  // namespace
}  // namespace pm
