// The session files against what another program or user may leave at
// their paths: a FIFO (never waited on), a hard link to some other file
// (refused, never written), a PerfMonger 1.0 session (its pidfile names a
// live `perfmonger record` of ours: shown, refused, stopped by SIGINT; one
// of another user's is no session and is never signalled), a pidfile
// naming this program outside any session (left alone).
#include <doctest/doctest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "test/process/other_user.hh"
#include "test/process/session_helpers.hh"

namespace pm::test {
namespace {

namespace fs = std::filesystem;

std::string NotRegular(const std::string& path) {
  return "perfmonger record: error: refusing " + path + ": not a regular file (remove it)\n";
}

// A stand-in for PerfMonger 1.0's recorder: a script named `perfmonger`,
// so /proc/PID/cmdline reads `/bin/sh DIR/perfmonger record ARGS`. It
// blocks reading its stdin; SIGINT's default action ends it.
Child FakePerfmonger10(const TempDir& tmp, Pipe& in, std::vector<std::string> args) {
  fs::create_directory(tmp / "pm10");
  std::string script = tmp / "pm10/perfmonger";
  WriteFile(script, "#!/bin/sh\nread line\n");
  fs::permissions(script, fs::perms::owner_all);
  SpawnOptions options;
  options.program = script;
  options.args = std::move(args);
  options.stdin_fd = std::move(in.read_end);
  return Child(std::move(options));
}

// The same stand-in run as `user`, from a directory it can read; it
// writes "ready" on the returned pipe once it runs the script, so its
// command line is the recorder's by then.
Child OthersPerfmonger10(const OtherUser& user, const TempDir& dir, Pipe& in,
                         LineInput& ready) {
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_exec |
                                  fs::perms::others_exec);
  std::string script = dir / "perfmonger";
  WriteFile(script, "#!/bin/sh\necho ready >&3\nread line\n");
  fs::permissions(script, fs::perms::all);
  SpawnOptions options = user.Spawn(script, {"record", "-i", "0.5"});
  options.stdin_fd = std::move(in.read_end);
  Pipe report = MakePipe();
  options.fds.emplace_back(3, std::move(report.write_end));
  ready = LineInput(std::move(report.read_end));
  return Child(std::move(options));
}

TEST_SUITE("session files") {
  TEST_CASE("a FIFO at a session path: refused at once, never waited on") {
    TempDir tmp;
    std::string path;
    SUBCASE("at the lock file") { path = LockFile(tmp); }
    SUBCASE("at the pidfile") { path = PidFile(tmp); }
    CAPTURE(path);
    REQUIRE(mkfifo(path.c_str(), 0600) == 0);
    std::vector<std::vector<std::string>> commands = {
        {"record", "--status"},
        {"record", "--kill"},
        {"record", "--background", "-l", tmp / "out.pgr.gz"}};
    for (const std::vector<std::string>& command : commands) {
      CAPTURE(command[1]);
      ExitResult r = Pm(tmp, command);
      CHECK(r.code == 1);
      CHECK(r.err == NotRegular(path));
      CHECK(r.out.empty());  // --background: refused before any child
    }
    struct stat st;
    REQUIRE(lstat(path.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
  }

  TEST_CASE("--log naming a FIFO nobody reads: refused, not waited on") {
    TempDir tmp;
    std::string fifo = tmp / "log.fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    ExitResult r = Pm(tmp, {"record", "--background", "--log", fifo, "-l", tmp / "o.pgr"});
    CAPTURE(r.err);
    CHECK(r.code == 1);
    CHECK(r.err.find("--log " + fifo) != std::string::npos);
    CHECK(r.out.empty());
  }

  TEST_CASE("a session file hard-linked to another file: refused, that file untouched") {
    TempDir tmp;
    std::string other = tmp / "precious";
    WriteFile(other, "precious\n");
    std::string path;
    SUBCASE("at the lock file") { path = LockFile(tmp); }
    SUBCASE("at the pidfile") { path = PidFile(tmp); }
    CAPTURE(path);
    REQUIRE(link(other.c_str(), path.c_str()) == 0);
    std::string refused = "perfmonger record: error: refusing " + path +
                          ": it has 2 hard links (remove it)\n";
    for (const char* mode : {"--status", "--kill"}) {
      ExitResult r = Pm(tmp, {"record", mode});
      CHECK(r.code == 1);
      CHECK(r.err == refused);
    }
    BackgroundLaunch launch(tmp);
    ExitResult r = launch.Launch({"-l", tmp / "out.pgr"});
    CHECK(r.code == 1);
    CHECK(r.err == refused);
    CHECK(ReadFileBytes(other) == "precious\n");
    CHECK(fs::hard_link_count(other) == 2);
  }

  TEST_CASE("a pidfile naming another user's PerfMonger 1.0 recorder: stale, not signalled") {
    OtherUser user;
    if (!user.available()) {
      MESSAGE("skipped: " << user.why_not());
      return;
    }
    TempDir tmp, scripts;
    Pipe in = MakePipe();
    LineInput ready;
    Child theirs = OthersPerfmonger10(user, scripts, in, ready);
    REQUIRE(ready.ReadLine(DefaultDeadline()) == "ready\n");
    std::string pid = std::to_string(theirs.pid());
    std::string stale = StaleNote(tmp, "PID " + pid + " is another user's (uid " +
                                           std::to_string(user.uid()) + ")");
    for (const char* mode : {"--kill", "--status"}) {
      WriteFile(PidFile(tmp), pid);  // a stale one of ours, the pid reused
      ExitResult r = Pm(tmp, {"record", mode});
      CAPTURE(mode);
      CHECK(r.code == 1);
      CHECK(r.err == stale + kNoSession);
      CHECK(ProcessRunning(theirs.pid()));
    }
    WriteFile(PidFile(tmp), pid);
    BackgroundLaunch launch(tmp);
    ExitResult started = launch.Launch({"-l", tmp / "out.pgr"});
    CAPTURE(started.err);
    CHECK(started.code == 0);
    CHECK(ReadFileBytes(PidFile(tmp)) == std::to_string(launch.pid()));
    CHECK(ProcessRunning(theirs.pid()));
  }

  TEST_CASE("a pidfile with no pid in it is stale") {
    TempDir tmp;
    WriteFile(PidFile(tmp), "garbage\n");
    ExitResult r = Pm(tmp, {"record", "--kill"});
    CHECK(r.code == 1);
    CHECK(r.err == StaleNote(tmp, "it holds no pid") + kNoSession);
    CHECK_FALSE(fs::exists(fs::symlink_status(PidFile(tmp))));
  }

  TEST_CASE("a running PerfMonger 1.0 session: shown, refused, stopped with SIGINT") {
    TempDir tmp;
    Pipe in = MakePipe();
    Child old = FakePerfmonger10(tmp, in, {"record", "-i", "0.5", "-l", "old.pgr"});
    std::string pid = std::to_string(old.pid());
    WriteFile(PidFile(tmp), pid);  // PerfMonger's format: the pid alone

    ExitResult status = Pm(tmp, {"record", "--status"});
    CAPTURE(status.out);
    CAPTURE(status.err);
    CHECK(status.code == 0);
    REQUIRE_FALSE(SplitLines(status.out).empty());
    CHECK(SplitLines(status.out)[0] == "==== perfmonger record is running (PID: " + pid + ") ====");
    CHECK(Field(status.out, "arguments") == "record -i 0.5 -l old.pgr");
    CHECK_FALSE(Field(status.out, "executable").value_or("").empty());
    ExitResult json = Pm(tmp, {"record", "--status", "--json"});
    CHECK(json.code == 0);
    Json j(json.out);
    CHECK(j.Int("pid") == old.pid());
    CHECK(std::string_view(j.root()["arguments"].at(0)) == "record");
    CHECK(bool(j.root()["perfmonger_1_0"]) == true);

    ExitResult again = Pm(tmp, {"record", "--background", "-l", tmp / "new.pgr.gz"});
    CAPTURE(again.err);
    CHECK(again.code == 1);
    CHECK(again.err ==
          "[ERROR] another perfmonger is already running in background mode (PID: " + pid +
              ")\n");
    CHECK(ReadFileBytes(PidFile(tmp)) == pid);
    CHECK(ProcessRunning(old.pid()));

    SpawnOptions kill_options;
    kill_options.args = {"record", "--kill"};
    kill_options.env = {"TMPDIR=" + tmp.path()};
    Child kill(std::move(kill_options));
    ExitResult ended = old.Wait();  // reaped as soon as it ends, as init would
    CHECK(ended.signal == SIGINT);
    ExitResult killed = kill.Wait();
    CAPTURE(killed.err);
    CHECK(killed.code == 0);
    CHECK(killed.err.empty());
  }

  TEST_CASE("a pidfile naming this program outside any session: left alone") {
    TempDir tmp;
    SpawnOptions options;
    options.args = {"record", "-i", "1", "-l", tmp / "fg.pgr"};
    Child foreground(std::move(options));
    WriteFile(PidFile(tmp), std::to_string(foreground.pid()));
    for (const char* mode : {"--status", "--kill"}) {
      ExitResult r = Pm(tmp, {"record", mode});
      CHECK(r.code == 1);
      CHECK(r.err == kNoSession);
    }
    CHECK(ReadFileBytes(PidFile(tmp)) == std::to_string(foreground.pid()));
    CHECK(ProcessRunning(foreground.pid()));
  }
}

}  // namespace
}  // namespace pm::test
