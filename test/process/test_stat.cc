// `perfmonger stat -- CMD`: the recording brackets CMD, the summary
// follows, and the exit status is CMD's.
#include <doctest/doctest.h>
#include <signal.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/io.hh"
#include "proto/pgr_format.hh"
#include "test/process/fake_proc.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

// `perfmonger ARGS` run in `cwd`, stdin /dev/null unless given.
ExitResult RunIn(const TempDir& cwd, std::vector<std::string> args,
                 UniqueFd stdin_fd = UniqueFd()) {
  SpawnOptions options;
  options.args = std::move(args);
  options.cwd = cwd.path();
  options.stdin_fd = std::move(stdin_fd);
  return Child(std::move(options)).Wait();
}

std::vector<int64_t> SampleTimes(const std::string& path) {
  std::vector<int64_t> times;
  Recording rec = ReadRecording(path);
  for (size_t i = 1; i < rec.lines.size(); ++i) {
    Json line(rec.lines[i]);
    if (!line.Has("event")) times.push_back(line.Int("t"));
  }
  return times;
}

TEST_SUITE("stat") {
  TEST_CASE("stat -- true: exit 0, ./perfmonger.pgr closed cleanly, the summary") {
    TempDir dir;
    ExitResult r = RunIn(dir, {"stat", "-i", "0.1", "--", "true"});
    CAPTURE(r.err);
    CHECK(r.code == 0);
    // PerfMonger's default name, plain: the first sample and the final one.
    CHECK(ReadRecording(dir / "perfmonger.pgr").compression == Compression::kPlain);
    CHECK(CheckCleanRecording(dir / "perfmonger.pgr", "command-exit") >= 2);
    CHECK(r.out.rfind("== performance summary of 'Command: true' ==\n", 0) == 0);
    CHECK(r.out.find("* Average CPU usage") != std::string::npos);
    // A lone machine: no Clock: block (summary --all has it).
    CHECK(r.out.find("\nClock:") == std::string::npos);
    CHECK(r.err == "== Performance Summary ==\n");
  }

  TEST_CASE("the first sample precedes CMD and the last one follows it") {
    TempDir dir;
    std::string out = dir / "bracket.pgr.gz";
    ExitResult r = RunIn(dir, {"stat", "-i", "3600", "-l", out, "--", "date", "+%s%N"});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    int64_t ran_at = std::stoll(SplitLines(r.out).at(0));  // CMD's stdout is ours
    std::vector<int64_t> times = SampleTimes(out);
    REQUIRE(times.size() == 2);  // no tick, only the two brackets
    CHECK(times.front() < ran_at);
    CHECK(ran_at < times.back());
  }

  TEST_CASE("CMD reads our stdin and the summary names every word") {
    TempDir dir;
    Pipe in = MakePipe();
    WriteAll(in.write_end.Get(), "hello from stdin\n");
    in.write_end.Reset();
    ExitResult r = RunIn(dir, {"stat", "-l", dir / "x.pgr", "--", "cat", "-"},
                         std::move(in.read_end));
    CHECK(r.code == 0);
    CHECK(r.out.rfind("hello from stdin\n== performance summary of 'Command: cat -' ==\n",
                      0) == 0);
  }

  TEST_CASE("a failing CMD: its exit status and a message") {
    TempDir dir;
    ExitResult r = RunIn(dir, {"stat", "-l", dir / "x.pgr", "--", "sh", "-c", "exit 3"});
    CHECK(r.code == 3);
    CHECK(r.err.find("Command failed: exit status 3\n") != std::string::npos);
    CHECK(r.out.find("'Command: sh -c 'exit 3''") != std::string::npos);  // as typed
    CHECK(CheckCleanRecording(dir / "x.pgr", "command-exit") >= 2);
  }

  TEST_CASE("a CMD killed by a signal: 128 + the signal") {
    TempDir dir;
    ExitResult r =
        RunIn(dir, {"stat", "-l", dir / "x.pgr", "--", "sh", "-c", "kill -TERM $$"});
    CHECK(r.code == 128 + SIGTERM);
    CHECK(r.err.find("Command failed: exit status 143") != std::string::npos);
    CHECK(CheckCleanRecording(dir / "x.pgr", "command-exit") >= 2);
  }

  TEST_CASE("a CMD that cannot be started: 127 and a message naming it") {
    TempDir dir;
    ExitResult r = RunIn(dir, {"stat", "-l", dir / "x.pgr", "--", "/nonexistent/cmd"});
    CHECK(r.code == 127);
    CHECK(r.err.find("/nonexistent/cmd") != std::string::npos);
    CHECK(r.err.find("No such file or directory") != std::string::npos);
    CHECK(r.out.empty());
  }

  // A tick while CMD runs: one wake-up in a second at -i 0.05, a margin
  // load cannot take (it merges ticks, it does not skip a second).
  TEST_CASE("stat --json: one JSON object whose exectime covers CMD") {
    TempDir dir;
    ExitResult r = RunIn(dir, {"stat", "--json", "-i", "0.05", "-l", dir / "x.pgr.zst",
                               "--", "sleep", "1"});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    REQUIRE(SplitLines(r.out).size() == 1);
    Json summary(r.out);
    CHECK(double(summary.root()["exectime"]) >= 1);
    CHECK(summary.Has("cpu"));
    CHECK(summary.root()["clock"]["start"].is_object());
    CHECK(summary.root()["clock"]["end"].is_object());
    CHECK(CheckCleanRecording(dir / "x.pgr.zst", "command-exit") >= 3);
    CHECK(Json(ReadRecording(dir / "x.pgr.zst").lines.at(0)).Int("interval_ns") == 50'000'000);
    // For scripts: the command, how it ended, and its bracket, first.
    CHECK(summary.Keys().at(0) == "command");
    auto command = summary.root()["command"];
    REQUIRE(command["argv"].array().size() == 2);
    CHECK(std::string_view(command["argv"].at(1)) == "1");
    CHECK(int64_t(command["exit_status"]) == 0);
    CHECK_FALSE(command["signal"].exists());
    Recording rec = ReadRecording(dir / "x.pgr.zst");
    CHECK(std::string_view(command["start"]) == FormatRfc3339(Json(rec.lines[1]).Int("t")));
    // The last sample: before the stop's scan of everyone else and the end.
    std::string last_sample = rec.lines[rec.lines.size() - 2];
    CHECK(Json(last_sample).Str("event") == "scan");
    last_sample = rec.lines[rec.lines.size() - 3];
    CHECK(std::string_view(command["end"]) == FormatRfc3339(Json(last_sample).Int("t")));
  }

  TEST_CASE("stat --json of a failing CMD: argv as given, its exit status; the title quoted") {
    TempDir dir;
    ExitResult r = RunIn(dir, {"stat", "--json", "-l", dir / "f.pgr", "--", "sh", "-c",
                               "exit 3", "it's"});
    CHECK(r.code == 3);
    Json summary(r.out);
    auto argv = summary.root()["command"]["argv"];
    REQUIRE(argv.array().size() == 4);
    CHECK(std::string_view(argv.at(2)) == "exit 3");
    CHECK(std::string_view(argv.at(3)) == "it's");
    CHECK(int64_t(summary.root()["command"]["exit_status"]) == 3);
    ExitResult text = RunIn(dir, {"stat", "-l", dir / "t.pgr", "--", "echo", "a b", "it's", "-x"});
    CHECK(text.code == 0);
    CHECK(text.out.find("== performance summary of 'Command: echo 'a b' 'it'\\''s' -x' ==") !=
          std::string::npos);
  }

  TEST_CASE("SIGINT to stat goes to CMD, and the recording is closed cleanly") {
    TempDir dir;
    Pipe out = MakePipe();
    SpawnOptions options;
    options.args = {"stat", "-l", dir / "x.pgr", "--",
                    "sh", "-c", "echo started; exec sleep 30"};
    options.fds.emplace_back(1, std::move(out.write_end));
    Child child(std::move(options));
    LineInput stdout_in(std::move(out.read_end));
    REQUIRE(stdout_in.ReadLine(DefaultDeadline()) == "started\n");
    child.Signal(SIGINT);
    ExitResult r = child.Wait();
    CHECK(r.code == 128 + SIGINT);  // sleep died of it
    CHECK(r.err.find("Command failed: exit status 130") != std::string::npos);
    CHECK(CheckCleanRecording(dir / "x.pgr", "command-exit") >= 2);
    CHECK(stdout_in.ReadToEof(DefaultDeadline()).find("== performance summary") == 0);
  }

  TEST_CASE("a recording that fails while CMD succeeds: exit 2, the error, no summary") {
    FakeProc proc(CountersAt(0));
    TempDir dir;
    // CMD spoils the fake /proc/stat (same inode): the final sample fails.
    ExitResult r = RunIn(dir, {"stat", "--root", proc.root(), "-l", dir / "x.pgr", "--",
                               "sh", "-c", "echo 'cpu x' > \"$0\"",
                               proc.root() + "/proc/stat"});
    CHECK(r.code == 2);
    CHECK(r.err.rfind("perfmonger stat: error: ", 0) == 0);
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.out.empty());
    // The first sample, flushed before CMD ran, is kept.
    CHECK(CountSampleLines(ReadRecording(dir / "x.pgr")) == 1);
  }

  TEST_CASE("a recording that cannot be written at all: a setup error, exit 1, CMD not run") {
    TempDir dir;
    ExitResult r = RunIn(dir, {"stat", "-l", "/dev/full", "--", "touch", dir / "ran"});
    CHECK(r.code == 1);  // nothing usable was made: as for record
    CHECK(r.err.find("/dev/full") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir / "ran"));
  }

  TEST_CASE("stat | head -1: a reader gone early is no error") {
    TempDir dir;
    ExitResult r = Run({"-c", "set -o pipefail; \"$0\" stat -l \"$1\" -- true | head -1",
                        PerfmongerPath(), dir / "x.pgr"},
                       "/bin/bash");
    CHECK(r.code == 0);
    CHECK(r.out == "== performance summary of 'Command: true' ==\n");
    CHECK(r.err == "== Performance Summary ==\n");
  }

  TEST_CASE("usage errors exit 1 and run nothing") {
    TempDir dir;
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"stat"},
             {"stat", "--timeout", "1", "--", "true"},
             {"stat", "--background", "--", "true"},
             {"stat", "--stop-fd", "0", "--", "true"},
             {"stat", "--jsn", "--", "true"}}) {
      CAPTURE(args.size());
      ExitResult r = RunIn(dir, args);
      CHECK(r.code == 1);
      CHECK(r.err.rfind("perfmonger stat: error: ", 0) == 0);
      CHECK(SplitLines(r.err).size() == 1);
    }
    ExitResult r = RunIn(dir, {"stat", "-l", dir / "no/such/dir.pgr", "--", "true"});
    CHECK(r.code == 1);
    CHECK(r.err.find("cannot create") != std::string::npos);
  }

  TEST_CASE("stat --help") {
    ExitResult r = Run({"stat", "--help"});
    CHECK(r.code == 0);
    CHECK(r.out.rfind("Usage: perfmonger stat", 0) == 0);
  }
}

}  // namespace
}  // namespace pm::test
