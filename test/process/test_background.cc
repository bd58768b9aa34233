// Background sessions: `record --background` reports ready/error/timeout,
// `--status` describes the session, `--kill` closes it; the pidfile and
// lock in $TMPDIR (each test its own) are never followed nor trusted blindly.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "common/io.hh"
#include "common/unique_fd.hh"
#include "test/process/recording.hh"
#include "test/process/text_shapes.hh"
#include "test/process/session_helpers.hh"

namespace pm::test {
namespace {

namespace fs = std::filesystem;
using Background = BackgroundLaunch;

// Launches and requires the ready line; returns the session's pid.
pid_t LaunchReady(Background& bg, std::vector<std::string> args, std::string cwd = "") {
  ExitResult r = bg.Launch(std::move(args), std::move(cwd));
  CAPTURE(r.out);
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  REQUIRE(bg.has_line());
  REQUIRE(bg.line().Str("ready") == "ready");
  REQUIRE(bg.pid() > 0);
  return bg.pid();
}

void CheckError(const ExitResult& r, const std::string& message) {
  CAPTURE(r.err);
  CHECK(r.code == 1);
  CHECK(r.err == message);
}

TEST_SUITE("background") {
  TEST_CASE("ready: pidfile, lock, status, then --kill closes the recording") {
    TempDir tmp;
    std::string out = tmp / "out.pgr.gz";
    Background bg(tmp);
    ExitResult r = bg.Launch({"-i", "0.05", "-l", out});
    CAPTURE(r.out);
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    CHECK(SplitLines(r.out).size() == 1);
    CHECK(r.out.back() == '\n');
    REQUIRE(bg.has_line());
    const Json& line = bg.line();
    CHECK(line.Str("event") == "child_ready");
    CHECK(line.Str("ready") == "ready");
    pid_t pid = bg.pid();
    REQUIRE(pid > 0);
    REQUIRE(line.root()["t_rel"].is_number());
    CHECK(double(line.root()["t_rel"]) >= 0);
    CHECK(line.Str("output") == out);

    struct stat st;
    REQUIRE(lstat(PidFile(tmp).c_str(), &st) == 0);
    CHECK(S_ISREG(st.st_mode));
    CHECK((st.st_mode & 07777) == 0600);
    CHECK(ReadFileBytes(PidFile(tmp)) == std::to_string(pid));
    REQUIRE(lstat(LockFile(tmp).c_str(), &st) == 0);
    CHECK(S_ISREG(st.st_mode));
    CHECK(pid != bg.launcher());
    CHECK(ProcessRunning(pid));
    CHECK(WaitForSamples(out, 3, DefaultDeadline()) >= 3);

    ExitResult status = Pm(tmp, {"record", "--status"});
    CAPTURE(status.out);
    CAPTURE(status.err);
    CHECK(status.code == 0);
    std::vector<std::string> lines = SplitLines(status.out);
    REQUIRE_FALSE(lines.empty());
    CHECK(lines[0] == "==== perfmonger record is running (PID: " +
                          std::to_string(pid) + ") ====");
    CHECK_FALSE(Field(status.out, "executable").value_or("").empty());
    CHECK_FALSE(Field(status.out, "start time").value_or("").empty());
    // What the user typed, not the child's internal command line.
    CHECK(Field(status.out, "arguments") == "record --background -i 0.05 -l " + out);
    CHECK(IsFixedPoint(Field(status.out, "running").value_or(""), 3, " sec"));
    CHECK(Field(status.out, "output") == out);
    CHECK(std::stoll(Field(status.out, "samples").value_or("-1")) >= 3);

    ExitResult json = Pm(tmp, {"record", "--status", "--json"});
    CAPTURE(json.out);
    CHECK(json.code == 0);
    CHECK(SplitLines(json.out).size() == 1);
    Json s(json.out);
    CHECK(s.Int("pid") == pid);
    CHECK(s.Str("output") == out);
    CHECK(s.Int("samples") >= 3);
    CHECK_FALSE(s.Str("executable").empty());
    CHECK_FALSE(s.Str("start_time").empty());
    CHECK(std::string_view(s.root()["arguments"].at(0)) == "record");
    CHECK(std::string_view(s.root()["arguments"].at(1)) == "--background");
    CHECK(s.root()["running_sec"].is_number());

    ExitResult kill = Pm(tmp, {"record", "--kill"});
    CAPTURE(kill.err);
    CHECK(kill.code == 0);
    // Gone, reaped by whoever reaps orphans here, or --kill said it waits.
    bool reaped = ::kill(pid, 0) == -1 && errno == ESRCH;
    CHECK((reaped || kill.err.find("awaits reaping by its parent") != std::string::npos));
    CHECK_FALSE(fs::exists(fs::symlink_status(PidFile(tmp))));
    CHECK(CheckCleanRecording(out, "SIGINT") >= 3);
    CHECK(GzipTest(out) == 0);
  }

  TEST_CASE("error: an output in a missing directory is relayed, no pidfile") {
    TempDir tmp;
    std::string out = tmp / "missing/dir/out.pgr.gz";
    Background bg(tmp);
    ExitResult r = bg.Launch({"-l", out});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.code == 1);
    CHECK(SplitLines(r.out).size() == 1);
    REQUIRE(bg.has_line());
    CHECK(bg.line().Str("event") == "child_ready");
    CHECK(bg.line().Str("ready") == "error");
    CHECK(bg.line().Str("reason").find(out) != std::string::npos);
    CHECK(bg.line().Int("exit_code") == 1);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.err.find(out) != std::string::npos);
    CHECK_FALSE(fs::exists(fs::symlink_status(PidFile(tmp))));
    if (bg.pid() > 0) CHECK_FALSE(ProcessRunning(bg.pid()));
  }

  TEST_CASE("timeout: exit 2, the child left running and killable") {
    TempDir tmp;
    // The output is a FIFO whose buffer is already full, so the child's
    // first write blocks and it cannot become ready before the deadline,
    // however slow or fast the machine is.
    std::string fifo = tmp / "out.pgr";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    UniqueFd pipe = UniqueFd::Adopt(::open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
    REQUIRE(pipe.Get() >= 0);
    std::string block(4096, 'x');
    while (::write(pipe.Get(), block.data(), block.size()) > 0) {
    }
    while (::write(pipe.Get(), "x", 1) > 0) {  // the last partial page too
    }
    Background bg(tmp);
    ExitResult r = bg.Launch({"-l", fifo, "--no-gzip", "--ready-timeout", "0.2"});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.code == 2);
    REQUIRE(bg.has_line());
    CHECK(bg.line().Str("ready") == "timeout");
    REQUIRE(bg.pid() > 0);
    CHECK(ProcessRunning(bg.pid()));
    // Unblock the child (it writes on as we read), then close the session.
    char sink[65536];
    while (::read(pipe.Get(), sink, sizeof sink) > 0) {
    }
    ExitResult kill = Pm(tmp, {"record", "--kill"});
    CAPTURE(kill.err);
    CHECK(kill.code == 0);
    CHECK_FALSE(ProcessRunning(bg.pid()));
    CHECK_FALSE(fs::exists(fs::symlink_status(PidFile(tmp))));
  }

  // The child has the whole --ready-timeout after its delay: a margin of
  // seconds, since an ASan build under load takes a second to be ready.
  TEST_CASE("the wait covers the start delay: -s longer than --ready-timeout is ready") {
    TempDir tmp;
    Background bg(tmp);
    const int delay = PM_TEST_MARGIN_S + 1;
    pid_t pid = LaunchReady(bg, {"-s", std::to_string(delay), "--ready-timeout",
                                 std::to_string(PM_TEST_MARGIN_S), "-i", "0.05",
                                 "-l", tmp / "out.pgr.gz"});
    double t_rel = double(bg.line().root()["t_rel"]);
    CHECK(t_rel >= delay);  // ready only after the delay it waited through
    CHECK(Pm(tmp, {"record", "--kill"}).code == 0);
    CHECK_FALSE(ProcessRunning(pid));
  }

  TEST_CASE("a second --background is refused while a session runs") {
    TempDir tmp;
    Background first(tmp);
    pid_t pid = LaunchReady(first, {"-i", "0.05", "-l", tmp / "a.pgr.gz"});
    Background second(tmp);
    ExitResult r = second.Launch({"-i", "0.05", "-l", tmp / "b.pgr.gz"});
    CAPTURE(r.err);
    CHECK(r.code == 1);
    CHECK(r.err.find("[ERROR] another perfmonger is already running in "
                     "background mode (PID: " + std::to_string(pid) + ")") !=
          std::string::npos);
    CHECK(ProcessRunning(pid));
    CHECK(ReadFileBytes(PidFile(tmp)) == std::to_string(pid));
    CHECK(Pm(tmp, {"record", "--kill"}).code == 0);
    CHECK_FALSE(ProcessRunning(pid));
  }

  TEST_CASE("a stale pidfile with a dead pid is cleaned") {
    TempDir tmp;
    SpawnOptions options;
    options.program = "/bin/true";
    Child dead(std::move(options));
    pid_t dead_pid = dead.pid();
    REQUIRE(dead.Wait().code == 0);
    WriteFile(PidFile(tmp), std::to_string(dead_pid));
    CheckError(Pm(tmp, {"record", "--status"}),
               StaleNote(tmp, "PID " + std::to_string(dead_pid) + " is not running") +
                   kNoSession);
    CHECK_FALSE(fs::exists(fs::symlink_status(PidFile(tmp))));
    WriteFile(PidFile(tmp), std::to_string(dead_pid));
    Background bg(tmp);
    pid_t pid = LaunchReady(bg, {"-i", "0.05", "-l", tmp / "out.pgr.gz"});
    CHECK(ReadFileBytes(PidFile(tmp)) == std::to_string(pid));
    CHECK(Pm(tmp, {"record", "--kill"}).code == 0);
  }

  TEST_CASE("a stale pidfile naming a live unrelated process: never signalled") {
    TempDir tmp;
    Pipe in = MakePipe();
    SpawnOptions options;
    options.program = "/bin/cat";
    options.stdin_fd = std::move(in.read_end);
    Child cat(std::move(options));
    WriteFile(PidFile(tmp), std::to_string(cat.pid()));

    CheckError(Pm(tmp, {"record", "--kill"}),
               StaleNote(tmp, "PID " + std::to_string(cat.pid()) +
                                  " is not a perfmonger recorder") +
                   kNoSession);
    CHECK(ProcessRunning(cat.pid()));
    CHECK_FALSE(fs::exists(fs::symlink_status(PidFile(tmp))));
    CheckError(Pm(tmp, {"record", "--status"}), kNoSession);
    WriteFile(PidFile(tmp), std::to_string(cat.pid()));  // --background replaces it
    {
      Background bg(tmp);
      pid_t pid = LaunchReady(bg, {"-i", "0.05", "-l", tmp / "out.pgr.gz"});
      CHECK(ReadFileBytes(PidFile(tmp)) == std::to_string(pid));
      CHECK(Pm(tmp, {"record", "--kill"}).code == 0);
    }
    CHECK(ProcessRunning(cat.pid()));
    in.write_end.Reset();  // cat ends by EOF: it was never signalled
    ExitResult r = cat.Wait();
    CHECK(r.code == 0);
    CHECK(r.signal == 0);
  }

  TEST_CASE("a symlink or a foreign file at a session path is refused") {
    TempDir tmp;
    std::string target = tmp / "target";
    WriteFile(target, "untouched\n");
    std::string path = PidFile(tmp);
    std::string foreign;
    SUBCASE("symlink at the pidfile") { fs::create_symlink(target, path); }
    SUBCASE("symlink at the lock file") {
      path = LockFile(tmp);
      fs::create_symlink(target, path);
    }
    SUBCASE("pidfile owned by another user") {
      if (geteuid() != 0) return;  // only root can give a file away
      foreign = std::to_string(getpid());
      WriteFile(path, foreign);
      REQUIRE(chown(path.c_str(), 65534, 65534) == 0);
    }
    CAPTURE(path);
    Background bg(tmp);
    ExitResult r = bg.Launch({"-i", "0.05", "-l", tmp / "out.pgr.gz"});
    CAPTURE(r.out);
    CAPTURE(r.err);
    CHECK(r.code == 1);
    CHECK_FALSE(r.err.empty());
    CHECK(ReadFileBytes(target) == "untouched\n");
    struct stat st;
    REQUIRE(lstat(path.c_str(), &st) == 0);
    if (foreign.empty()) {
      CHECK(S_ISLNK(st.st_mode));
    } else {
      CHECK(st.st_uid == 65534);
      CHECK(ReadFileBytes(path) == foreign);
    }
    if (bg.pid() > 0) CHECK_FALSE(ProcessRunning(bg.pid()));
    fs::remove(path);
    CheckError(Pm(tmp, {"record", "--status"}), kNoSession);
  }

  TEST_CASE("--status and --kill without a session; both together") {
    TempDir tmp;
    CheckError(Pm(tmp, {"record", "--status"}), kNoSession);
    CheckError(Pm(tmp, {"record", "--kill"}), kNoSession);
    ExitResult r = Pm(tmp, {"record", "--status", "--kill"});
    CAPTURE(r.err);
    CHECK(r.code == 1);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.err.rfind("perfmonger record: error: ", 0) == 0);
  }

  TEST_CASE("record options reach the child; it ends by --timeout") {
    TempDir tmp;
    Background bg(tmp);
    pid_t pid = LaunchReady(bg, {"-i", "0.05", "-t", "0.5", "--meta", "k=v%20w",
                                 "-l", "rel.pgr.zst"},
                            tmp.path());
    std::string out = tmp / "rel.pgr.zst";
    CHECK(bg.line().Str("output") == out);
    WaitForExit(pid, DefaultDeadline());
    // -i and -t reached it: its interval, an end not before T, at most
    // T/I + 1 samples (the exact count is test/daemon's: under load two
    // ticks may merge into one wake-up).
    size_t samples = CheckCleanRecording(out, "timeout");
    CHECK(samples >= 2);
    CHECK(samples <= 11);
    Recording rec = ReadRecording(out);
    Json header(rec.lines.at(0));
    CHECK(header.Int("interval_ns") == 50'000'000);
    int64_t first_mono = Json(rec.lines.at(1)).Int("mono");
    CHECK(Json(rec.lines.back()).Int("mono") - first_mono >= 500'000'000 - 10'000'000);
    REQUIRE(header.root()["meta"].is_object());
    CHECK(header.root()["meta"].object().size() == 1);
    CHECK(std::string_view(header.root()["meta"]["k"]) == "v w");
    CHECK_FALSE(fs::exists(fs::symlink_status(PidFile(tmp))));
  }
}

}  // namespace
}  // namespace pm::test
