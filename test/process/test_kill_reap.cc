// `record --kill` returns once the session's process is gone: exited,
// its recording closed, and reaped by its parent. The test process makes
// itself the session's parent (a subreaper) to play an init that reaps at
// once and one that reaps late.
#include <doctest/doctest.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test/process/session_helpers.hh"

namespace pm::test {
namespace {

pid_t LaunchOrphan(const TempDir& tmp, BackgroundLaunch& bg) {
  ExitResult r = bg.Launch({"-i", "0.05", "-l", tmp / "out.pgr.gz"});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  REQUIRE(bg.pid() > 0);
  return bg.pid();
}

TEST_SUITE("kill") {
  TEST_CASE("a parent that reaps at once: --kill returns after the reap, no note") {
    TempDir tmp;
    Subreaper subreaper;
    BackgroundLaunch bg(tmp);
    pid_t pid = LaunchOrphan(tmp, bg);
    UniqueFd pidfd = OpenPidfd(pid);
    REQUIRE(pidfd);

    SpawnOptions options;
    options.args = {"record", "--kill"};
    options.env = {"TMPDIR=" + tmp.path()};
    Child kill_cmd(std::move(options));
    PollUntil(pidfd.Get(), POLLIN, DefaultDeadline(), "the session to exit");
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);  // the session was ours to reap
    ExitResult r = kill_cmd.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(CheckCleanRecording(tmp / "out.pgr.gz", "SIGINT") >= 1);
  }

  TEST_CASE("a parent that has not reaped by the deadline: exit 0 and a note naming it") {
    TempDir tmp;
    Subreaper subreaper;
    BackgroundLaunch bg(tmp);
    pid_t pid = LaunchOrphan(tmp, bg);
    ExitResult r = Pm(tmp, {"record", "--kill", "--kill-timeout", "0.3"});
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err == "perfmonger record: the recording is closed; PID " + std::to_string(pid) +
                       " has exited and awaits reaping by its parent (PID " +
                       std::to_string(getpid()) + ")\n");
    CHECK(kill(pid, 0) == 0);  // the zombie is still there: the note was true
    int status = 0;
    CHECK(waitpid(pid, &status, 0) == pid);
    CHECK(CheckCleanRecording(tmp / "out.pgr.gz", "SIGINT") >= 1);
  }
}

}  // namespace
}  // namespace pm::test
