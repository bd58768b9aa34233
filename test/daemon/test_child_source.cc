// The sources `stat` and `live` add, stepped on a real uv loop: a child's
// pidfd (its exit is one event; a signal passed on reaches it), the
// deferred stop request, and the hangup of a pipe's reader.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "common/io.hh"
#include "common/unique_fd.hh"
#include "daemon/child_source.hh"
#include "daemon/hangup_source.hh"
#include "daemon/clock.hh"
#include "daemon/stop_request.hh"
#include "test/deadlines.h"

namespace {

struct Loop {
  uv_loop_t loop;
  Loop() { REQUIRE(uv_loop_init(&loop) == 0); }
  ~Loop() {
    uv_run(&loop, UV_RUN_DEFAULT);
    CHECK(uv_loop_close(&loop) == 0);
  }
  template <class Done> void RunUntil(Done done) {
    int64_t deadline = pm::NowMonoNs() + int64_t{PM_TEST_DEADLINE_MS} * 1'000'000;
    while (!done() && pm::NowMonoNs() < deadline) uv_run(&loop, UV_RUN_ONCE);
    REQUIRE(done());
  }
};

struct Events : pm::ChildSource::Handler, pm::StopRequest::Handler,
                pm::HangupSource::Handler {
  int exits = 0;
  int stop_requests = 0;
  int hangups = 0;
  void OnHangup() noexcept override { ++hangups; }
  void OnChildExit() noexcept override { ++exits; }
  void OnStopRequest() noexcept override { ++stop_requests; }
};

// A child that waits until a signal ends it. SIGTERM stays blocked from
// before the fork until the child waits with the default action restored,
// so a signal sent at once never meets doctest's inherited handler.
pid_t StartPausedChild() {
  sigset_t term, old;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  REQUIRE(sigprocmask(SIG_BLOCK, &term, &old) == 0);
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGTERM, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigsuspend(&none);
    _exit(0);
  }
  sigprocmask(SIG_SETMASK, &old, nullptr);
  REQUIRE(pid >= 0);
  return pid;
}

pm::UniqueFd Pidfd(pid_t pid) {
  int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  REQUIRE(fd >= 0);
  return pm::UniqueFd::Adopt(fd);
}

}  // namespace

TEST_CASE("a child's exit is one event, and the exit status is left to reap") {
  Loop l;
  Events ev;
  pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) _exit(7);
  pm::ChildSource child(l.loop, ev, Pidfd(pid));
  l.RunUntil([&] { return ev.exits > 0; });
  uv_run(&l.loop, UV_RUN_NOWAIT);
  CHECK(ev.exits == 1);
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 7);
  child.Close();
}

TEST_CASE("a signal passed on reaches the child, which then exits") {
  Loop l;
  Events ev;
  pid_t pid = StartPausedChild();
  pm::ChildSource child(l.loop, ev, Pidfd(pid));
  child.Signal(SIGTERM);
  l.RunUntil([&] { return ev.exits > 0; });
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  child.Signal(SIGTERM);  // after the exit: nothing to do, no crash
  child.Close();
}

TEST_CASE("stop requests made before the loop turns arrive as one event") {
  Loop l;
  Events ev;
  pm::StopRequest request(l.loop, ev);
  request.Request();
  request.Request();
  CHECK(ev.stop_requests == 0);  // never inside the caller's callback
  l.RunUntil([&] { return ev.stop_requests > 0; });
  uv_run(&l.loop, UV_RUN_NOWAIT);
  CHECK(ev.stop_requests == 1);
  request.Close();
}

TEST_CASE("a pipe's reader going away is one hangup; the writer's flags stay") {
  Loop l;
  Events ev;
  pm::Pipe pipe = pm::MakePipe();
  int flags = fcntl(pipe.write_end.Get(), F_GETFL);
  REQUIRE(pm::HangupSource::CanWatch(pipe.write_end.Get()));
  pm::HangupSource hangup(l.loop, ev, pipe.write_end.Get());
  pm::WriteAll(pipe.write_end.Get(), "a line the reader never reads\n");
  uv_run(&l.loop, UV_RUN_NOWAIT);
  CHECK(ev.hangups == 0);  // writable with a reader: no event
  pipe.read_end.Reset();
  l.RunUntil([&] { return ev.hangups > 0; });
  uv_run(&l.loop, UV_RUN_NOWAIT);
  CHECK(ev.hangups == 1);
  CHECK(fcntl(pipe.write_end.Get(), F_GETFL) == flags);
  hangup.Close();
}

TEST_CASE("only pipes and sockets have a reader to lose") {
  pm::UniqueFd file = pm::OpenAt(AT_FDCWD, "/proc/self/stat", O_RDONLY);
  CHECK_FALSE(pm::HangupSource::CanWatch(file.Get()));
  CHECK_FALSE(pm::HangupSource::CanWatch(-1));
}
