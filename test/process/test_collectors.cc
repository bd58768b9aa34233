// The pressure and process collectors on this machine's real /proc: what
// `stat -- CMD` attributes to CMD's own process, a --pid that exits
// mid-recording, a --pid that does not exist, and PSI when the kernel has it.
#include <doctest/doctest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test/process/recording.hh"

namespace pm::test {
namespace {

constexpr int64_t kTwentyMiB = 20 * 1024 * 1024;

ExitResult RunIn(const TempDir& cwd, std::vector<std::string> args) {
  SpawnOptions options;
  options.args = std::move(args);
  options.cwd = cwd.path();
  return Child(std::move(options)).Wait(After(std::chrono::seconds(60)));
}

// A pid no process can have: pids stay below pid_max.
std::string ImpossiblePid() {
  std::ifstream in("/proc/sys/kernel/pid_max");
  long max = 0;
  in >> max;
  return std::to_string(max);
}

// The last sample line of a recording.
Json LastSample(const std::string& path) {
  Recording rec = ReadRecording(path);
  for (size_t i = rec.lines.size(); i-- > 1;)
    if (!Json(rec.lines[i]).Has("event")) return Json(rec.lines[i]);
  FAIL("no sample in " << path);
  return Json("{}");
}

}  // namespace

TEST_SUITE("collectors on the real machine") {
  TEST_CASE("stat -- dd oflag=direct: the written bytes are the command's own") {
    TempDir dir;
    ExitResult r = RunIn(dir, {"stat", "--json", "-i", "0.1", "-l", dir / "s.pgr", "--", "dd",
                               "if=/dev/zero", "of=" + dir / "f", "bs=1M", "count=20",
                               "oflag=direct"});
    CAPTURE(r.err);
    if (r.code != 0 && r.err.find("Invalid argument") != std::string::npos) {
      MESSAGE("skipped: " << dir.path() << " does not take O_DIRECT (tmpfs?)");
      return;
    }
    REQUIRE(r.code == 0);
    Json summary(r.out);
    const JsonValue& cmd = summary.root()["procs"]["cmd"];
    REQUIRE(cmd.is_object());
    CHECK(int64_t(cmd["write_bytes"]) >= kTwentyMiB);  // from storage, past the page cache
    CHECK(int64_t(cmd["wchar"]) >= kTwentyMiB);
    CHECK(int64_t(cmd["num_threads"]) >= 1);
    // The machine wrote at least as much to its recorded disks.
    CHECK(int64_t(summary.root()["procs"]["system"]["write_bytes"]) >= kTwentyMiB);
    CHECK(summary.Has("pressure") == std::filesystem::exists("/proc/pressure/cpu"));
    // play carries the same row, and the text summary the block beside the system's.
    ExitResult play = Run({"play", dir / "s.pgr"});
    REQUIRE(play.code == 0);
    CHECK(Json(SplitLines(play.out).back()).root()["procs"]["cmd"].exists());
    ExitResult text = Run({"summary", dir / "s.pgr"});
    CHECK(text.out.find("* Process cmd (waited-for children included)\n"
                        "         CPU time: ") != std::string::npos);
  }

  TEST_CASE("stat --record-pressure=false: no pressure; the command's row stays") {
    TempDir dir;
    ExitResult r = RunIn(dir, {"stat", "--json", "--record-pressure=false", "--", "true"});
    REQUIRE(r.code == 0);
    Json summary(r.out);
    CHECK_FALSE(summary.Has("pressure"));
    CHECK(summary.root()["procs"]["cmd"].exists());
  }

  TEST_CASE("--pid of a process that exits: null from then on, one note, the recording goes on") {
    SpawnOptions sleeper;
    sleeper.program = "/bin/sleep";
    sleeper.args = {"60"};
    Child target(std::move(sleeper));
    std::string pid = std::to_string(target.pid());
    TempDir dir;
    std::string out = dir / "p.pgr";
    CommandSession s({"record", "-l", out, "-i", "10", "--pid", pid});
    s.ReadReadyLine();
    AwaitCpuTick();  // each pair a tick wide: none left out for zero width
    CHECK(bool(s.Command("sample").root()["ok"]));
    target.Signal(SIGKILL);
    target.Wait();  // reaped: /proc/PID is gone
    AwaitCpuTick();
    CHECK(bool(s.Command("sample").root()["ok"]));
    AwaitCpuTick();
    CHECK(bool(s.Command("sample").root()["ok"]));
    AwaitCpuTick();
    s.CloseStop();
    ExitResult r = s.Wait();
    CHECK(r.code == 0);
    CHECK(r.err.find("note: process " + pid + " is gone; recorded as null from now on\n") !=
          std::string::npos);
    CHECK(r.err.find("is gone") == r.err.rfind("is gone"));  // once
    CHECK(LastSample(out).root()["procs"].at(0).type() == JsonValue::Type::kNull);
    ExitResult play = Run({"play", out});
    REQUIRE(play.code == 0);
    std::vector<std::string> lines = SplitLines(play.out);
    CHECK(Json(lines.front()).root()["procs"][pid].is_object());
    CHECK(Json(lines.back()).root()["procs"][pid].type() == JsonValue::Type::kNull);
  }

  TEST_CASE("--pid that does not exist: exit 1, one line naming it, nothing written") {
    TempDir dir;
    std::string pid = ImpossiblePid();
    ExitResult r = Run({"record", "-l", dir / "x.pgr", "-t", "1", "--pid", pid});
    CHECK(r.code == 1);
    CHECK(r.err == "perfmonger record: error: --pid " + pid + ": no such process (no /proc/" +
                       pid + "); name a running process\n");
    CHECK_FALSE(std::filesystem::exists(dir / "x.pgr"));
  }

  TEST_CASE("--record-pressure on this kernel") {
    if (!std::filesystem::exists("/proc/pressure/cpu")) {
      MESSAGE("skipped: this kernel has no /proc/pressure (CONFIG_PSI, psi=1)");
      return;
    }
    TempDir dir;
    std::string out = dir / "r.pgr";
    CommandSession s({"record", "-l", out, "-i", "10", "--record-pressure"});
    s.ReadReadyLine();
    CHECK(bool(s.Command("sample").root()["ok"]));
    s.CloseStop();
    REQUIRE(s.Wait().code == 0);
    Json header(ReadRecording(out).lines.at(0));
    const JsonValue& rows = header.root()["collectors"]["pressure"]["rows"];
    REQUIRE(rows.array().size() >= 1);
    CHECK(std::string_view(rows.at(0)) == "cpu.some");
    ExitResult play = Run({"play", out});
    REQUIRE(play.code == 0);
    for (const std::string& line : SplitLines(play.out)) {
      double some = double(Json(line).root()["pressure"]["cpu"]["some"]);
      CHECK(some >= 0.0);
      CHECK(some <= 100.5);  // a stall can't exceed the interval (rounding aside)
    }
  }
}

}  // namespace pm::test

namespace pm::test {

TEST_SUITE("collectors on the real machine") {
  TEST_CASE("summary --phases: every phase has its pressure and process blocks") {
    if (!std::filesystem::exists("/proc/pressure/cpu")) {
      MESSAGE("skipped: this kernel has no /proc/pressure (CONFIG_PSI, psi=1)");
      return;
    }
    TempDir dir;
    std::string out = dir / "ph.pgr";
    CommandSession s({"record", "-l", out, "-i", "10", "--record-pressure", "--pid",
                      std::to_string(getpid())});
    s.ReadReadyLine();
    AwaitCpuTick();  // each pair a tick wide: none left out for zero width
    CHECK(bool(s.Command("mark q1").root()["ok"]));
    AwaitCpuTick();
    CHECK(bool(s.Command("sample").root()["ok"]));
    AwaitCpuTick();
    s.CloseStop();
    REQUIRE(s.Wait().code == 0);
    ExitResult r = Run({"summary", "--phases", "--json", out});
    REQUIRE(r.code == 0);
    Json phases(r.out);
    REQUIRE(phases.root().array().size() == 2);
    for (const JsonValue& phase : phases.root().array()) {
      CHECK(phase["pressure"]["cpu"]["some"].is_number());
      CHECK(phase["procs"][std::to_string(getpid())]["cpu_sec"].is_number());
    }
  }
}

}  // namespace pm::test
