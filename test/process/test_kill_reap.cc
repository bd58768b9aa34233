// `record --kill` returns once the session's process is gone: exited,
// its recording closed, and reaped by its parent. The test process makes
// itself the session's parent (a subreaper) to play an init that reaps at
// once and one that reaps late. A session stopped while it starts (it is
// visible from its lock on) makes its launch report an error, not ready.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
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

// A FIFO output whose pipe holds one page: the recorder's first write (a
// header with an 8 KiB metadata value) waits there, after the session lock
// and before the ready line, until the test reads.
struct SlowOutput {
  std::string path;
  UniqueFd reader;
  explicit SlowOutput(const TempDir& tmp) : path(tmp / "out.pgr") {
    REQUIRE(mkfifo(path.c_str(), 0600) == 0);
    reader = OpenAt(AT_FDCWD, path, O_RDONLY | O_NONBLOCK);
    REQUIRE(fcntl(reader.Get(), F_SETPIPE_SZ, 4096) >= 0);
  }
};

TEST_SUITE("kill") {
  TEST_CASE("a session stopped before it was ready: its launch reports the error") {
    TempDir tmp;
    SlowOutput out(tmp);
    SpawnOptions options;
    options.args = {"record", "--background", "--no-gzip", "-l", out.path, "--meta",
                    "k=" + std::string(8192, 'x')};
    options.env = {"TMPDIR=" + tmp.path()};
    Child launcher(std::move(options));
    PollUntil(out.reader.Get(), POLLIN, DefaultDeadline(), "the header");
    ExitResult status = Pm(tmp, {"record", "--status", "--json"});  // it holds the lock
    REQUIRE(status.code == 0);
    pid_t pid = static_cast<pid_t>(Json(status.out).Int("pid"));
    REQUIRE(kill(pid, SIGINT) == 0);  // as --kill does, now pending
    LineInput(std::move(out.reader)).ReadToEof(DefaultDeadline());
    ExitResult r = launcher.Wait();
    CAPTURE(r.out);
    CHECK(r.code == 1);
    Json line(SplitLines(r.out).at(0));
    CHECK(line.Str("ready") == "error");
    CHECK(line.Str("reason") == "stopped by SIGINT before it was ready (record --kill, or "
                                "another signal)");
    CHECK(Pm(tmp, {"record", "--status"}).code == 1);
  }


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

  // The deadline bounds the session's exit too, so it is a margin of
  // seconds: the reap, which this parent never does, is waited for as long.
  TEST_CASE("a parent that has not reaped by the deadline: exit 0 and a note naming it") {
    TempDir tmp;
    Subreaper subreaper;
    BackgroundLaunch bg(tmp);
    pid_t pid = LaunchOrphan(tmp, bg);
    ExitResult r = Pm(tmp, {"record", "--kill", "--kill-timeout",
                            std::to_string(PM_TEST_MARGIN_S)});
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
