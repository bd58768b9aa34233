// `perfmonger live`: play lines as the samples are taken, ended by a
// signal, --timeout, or a reader that goes away.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/io.hh"
#include "test/process/fake_proc.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

ExitResult RunIn(const TempDir& cwd, std::vector<std::string> args) {
  SpawnOptions options;
  options.args = std::move(args);
  options.cwd = cwd.path();
  return Child(std::move(options)).Wait();
}

void CheckPlayLines(const std::string& out) {
  std::vector<std::string> lines = SplitLines(out);
  for (const std::string& line : lines) {
    CAPTURE(line);
    Json json(line);
    CHECK(json.Has("time"));
    CHECK(json.Has("elapsed_time"));
    CHECK(json.Has("cpu"));
  }
}

TEST_SUITE("live") {
  TEST_CASE("live | head -3: three JSON lines, then live ends quietly with 0") {
    ExitResult r = Run({"-c", "set -o pipefail; \"$0\" live -i 0.05 | head -3",
                        PerfmongerPath()},
                       "/bin/bash");
    CAPTURE(r.err);
    CHECK(r.code == 0);  // pipefail: live's status, had it failed
    CHECK(r.err.empty());
    REQUIRE(SplitLines(r.out).size() == 3);
    CheckPlayLines(r.out);
  }

  TEST_CASE("live --timeout ends by itself, and writes no file without -l") {
    TempDir dir;
    ExitResult r = RunIn(dir, {"live", "--timeout", "0.5", "-i", "0.1"});
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(!SplitLines(r.out).empty());
    CheckPlayLines(r.out);
    CHECK(std::filesystem::is_empty(dir.path()));
  }

  TEST_CASE("with -l, live prints what play prints of the recording it keeps") {
    std::vector<std::string> style;
    SUBCASE("compact") {}
    SUBCASE("--pretty --color") { style = {"--pretty", "--color"}; }
    SUBCASE("--record-procs: the process table's lines too") { style = {"--record-procs"}; }
    TempDir dir;
    std::string out = dir / "live.pgr.gz";
    std::vector<std::string> args = {"live", "-i", "0.1", "-t", "0.35", "-l", out};
    args.insert(args.end(), style.begin(), style.end());
    ExitResult r = RunIn(dir, args);
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    size_t samples = CheckCleanRecording(out, "timeout");
    std::vector<std::string> play = {"play", out};
    if (style.size() == 2) play.insert(play.end(), style.begin(), style.end());
    ExitResult played = Run(play);
    CHECK(played.code == 0);
    CHECK(r.out == played.out);
    if (style.empty()) CHECK(SplitLines(r.out).size() == samples - 1);  // every pair
    if (style.size() == 1) CHECK(r.out.find("\"proctable\":[{\"pid\":") != std::string::npos);
  }

  // A fake /proc whose CPU total moves only when the test writes it: the
  // pairs in which it stood still have null CPU fields, and are printed.
  TEST_CASE("live prints every pair, one in which no CPU time passed too, as play does") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    std::string out = dir / "z.pgr";
    CommandSession s({"live", "--root", fake.root(), "-i", "3600", "-l", out});
    s.ReadReadyLine();
    REQUIRE(bool(s.Command("sample").root()["ok"]));  // no tick yet
    fake.Write(CountersAt(1));
    REQUIRE(bool(s.Command("sample").root()["ok"]));
    s.CloseStop();  // the stop's sample: no tick either
    ExitResult r = s.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    Recording rec = ReadRecording(out);
    REQUIRE(CountSampleLines(rec) == 4);
    std::vector<std::string> lines = SplitLines(r.out);
    REQUIRE(lines.size() == 3);
    CHECK(Json(lines[0]).root()["cpu"]["all"]["usr"].is_null());
    CHECK_FALSE(Json(lines[1]).root()["cpu"]["all"]["usr"].is_null());
    CHECK(Json(lines[2]).root()["cpu"]["all"]["usr"].is_null());
    CHECK(r.err.empty());
    ExitResult played = Run({"play", out});
    CHECK(played.out == r.out);
    CHECK(played.err.empty());
  }

  TEST_CASE("a closed stdout pipe ends live at once, not at the next sample") {
    TempDir dir;
    std::string out = dir / "x.pgr";
    Pipe stdout_pipe = MakePipe();
    SpawnOptions options;
    Pipe ready = MakePipe();
    options.args = {"live", "-i", "60", "-l", out, "--ready-fd", "3"};
    options.fds.emplace_back(1, std::move(stdout_pipe.write_end));
    options.fds.emplace_back(3, std::move(ready.write_end));
    Child child(std::move(options));
    LineInput ready_in(std::move(ready.read_end));
    REQUIRE(ready_in.ReadLine(DefaultDeadline()));  // sampling; nothing printed yet
    stdout_pipe.read_end.Reset();
    ExitResult r = child.Wait();  // the deadline is far below the interval
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(CheckCleanRecording(out, "stdout-closed") == 2);
  }

  TEST_CASE("SIGINT and SIGTERM end live cleanly") {
    int signo = SIGINT;
    std::string reason = "SIGINT";
    SUBCASE("SIGINT") {}
    SUBCASE("SIGTERM") {
      signo = SIGTERM;
      reason = "SIGTERM";
    }
    TempDir dir;
    Pipe out = MakePipe();
    SpawnOptions options;
    options.args = {"live", "-i", "0.05", "-l", dir / "x.pgr"};
    options.fds.emplace_back(1, std::move(out.write_end));
    Child child(std::move(options));
    LineInput lines(std::move(out.read_end));
    std::optional<std::string> first = lines.ReadLine(DefaultDeadline());
    REQUIRE(first);
    CheckPlayLines(*first);
    child.Signal(signo);
    ExitResult r = child.Wait();
    CAPTURE(r.err);
    CHECK(r.code == 0);
    CHECK(r.err.empty());
    CHECK(CheckCleanRecording(dir / "x.pgr", reason) >= 2);
  }

  TEST_CASE("a stdout that fails (not a closed pipe) is an error, exit 2") {
    SpawnOptions options;
    options.args = {"live", "-i", "0.05"};
    options.fds.emplace_back(1, OpenAt(AT_FDCWD, "/dev/full", O_WRONLY));
    ExitResult r = Child(std::move(options)).Wait();
    CHECK(r.code == 2);
    CHECK(r.err.rfind("perfmonger live: error: stdout: ", 0) == 0);
    CHECK(SplitLines(r.err).size() == 1);
  }

  TEST_CASE("live refuses --background, exit 1") {
    ExitResult r = Run({"live", "--background"});
    CHECK(r.code == 1);
    CHECK(r.err.rfind("perfmonger live: error: ", 0) == 0);
    ExitResult help = Run({"live", "--help"});
    CHECK(help.code == 0);
    CHECK(help.out.rfind("Usage: perfmonger live", 0) == 0);
  }
}

}  // namespace
}  // namespace pm::test
