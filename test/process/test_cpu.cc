// CPU time below the tick: a process's CPU from its CPU clock (ns) and
// its threads' run-queue wait, every sample pair kept whatever its width,
// and the recorder's grid that never takes a tick right after a sample.
// Processes of known shape come from cpu_helper.c.
#include <doctest/doctest.h>
#include <signal.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "test/process/recording.hh"

namespace pm::test {
namespace {

std::string CpuHelper() {
  const char* path = std::getenv("CPU_HELPER");
  REQUIRE(path != nullptr);
  return path;
}

ExitResult Stat(std::vector<std::string> args) {
  SpawnOptions options;
  options.args = std::move(args);
  return Child(std::move(options)).Wait(After(std::chrono::seconds(120)));
}

TEST_SUITE("cpu precision") {
  // The periods cpu_helper reports it could not keep ("late FROM TO" on
  // stderr, monotonic ns): the host took the CPU from the guest, a VM's
  // steal that the guest does not see.
  std::vector<std::pair<int64_t, int64_t>> LatePeriods(const std::string& err) {
    std::vector<std::pair<int64_t, int64_t>> late;
    for (const std::string& line : SplitLines(err)) {
      long long from = 0, to = 0;
      if (std::sscanf(line.c_str(), "late %lld %lld", &from, &to) == 2) late.emplace_back(from, to);
    }
    return late;
  }

  TEST_CASE("a process busy 30 % of a core, recorded at 10 ms, reads 30 % in every sample") {
    TempDir dir;
    std::string out = dir / "duty.pgr";
    ExitResult r = Stat({"stat", "-i", "0.01", "-l", out, "--", CpuHelper(), "duty", "3"});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    ExitResult play = Run({"play", out});
    REQUIRE(play.code == 0);
    std::vector<std::string> lines = SplitLines(play.out);
    REQUIRE(lines.size() > 200);
    std::vector<int64_t> monos;  // line i pairs samples i and i + 1
    for (const std::string& text : ReadRecording(out).lines)
      if (text.starts_with("{\"t\":")) monos.push_back(Json(text).Int("mono"));
    REQUIRE(monos.size() == lines.size() + 1);
    const auto late = LatePeriods(r.err);
    auto disturbed = [&](size_t i) {
      for (auto [from, to] : late)
        if (from < monos[i + 1] && to > monos[i]) return true;
      return false;
    };
    // The middle: the helper's start (exec) and end are not its duty cycle.
    size_t near = 0, n = 0, left = 0;
    double sum = 0;
    for (size_t i = 20; i + 20 < lines.size(); ++i) {
      if (disturbed(i)) {
        ++left;
        continue;
      }
      CAPTURE(lines[i]);
      const Json line(lines[i]);  // outlives `cmd`, a view into it
      const JsonValue& cmd = line.root()["procs"]["cmd"];
      REQUIRE(cmd.is_object());
      double cpu = double(cmd["cpu"]);
      CHECK(std::fabs(double(cmd["usr"]) + double(cmd["sys"]) - cpu) <= 0.011);  // each to 0.01
      CHECK(double(cmd["run_wait"]) >= 0);
      near += std::fabs(cpu - 30.0) <= 5.0;
      sum += cpu;
      ++n;
    }
    CAPTURE(near);
    CAPTURE(n);
    CAPTURE(left);
    REQUIRE(n >= 100);  // most periods were kept
    CHECK(sum / static_cast<double>(n) == doctest::Approx(30.0).epsilon(0.1));
    if (r.out.starts_with("fifo\n")) {
      CHECK(static_cast<double>(near) >= 0.95 * static_cast<double>(n));
    } else {
      MESSAGE("cpu_helper could not take SCHED_FIFO (not root): on a busy machine its "
              "duty cycle is the scheduler's, so only the mean is checked");
    }
  }

  TEST_CASE("a thread that exits keeps its CPU time in the process's") {
    TempDir dir;
    std::string out = dir / "exiting.pgr";
    ExitResult r = Stat({"stat", "--json", "-i", "0.05", "-l", out, "--", CpuHelper(),
                         "exiting", "300"});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    size_t nl = r.out.find('\n');
    double own = std::stod(r.out.substr(0, nl)) / 1e9;  // its clock, just before exit
    Json summary(r.out.substr(nl + 1));
    double recorded = double(summary.root()["procs"]["cmd"]["cpu_sec"]);
    CHECK(own >= 0.6);
    CHECK(recorded >= own);  // printf and exit come after
    // ... and little else (a sanitized build's exit handlers take tens of
    // ms); the exited thread's 0.3 s counted twice would be far above.
    CHECK(recorded <= own + 0.1);
  }

  TEST_CASE("marks every few ms: every mark keeps its sample, every pair a line, no warning") {
    TempDir dir;
    std::string out = dir / "marks.pgr";
    {
      CommandSession s({"record", "-i", "0.01", "-l", out});
      s.ReadReadyLine();
      for (int i = 0; i < 300; ++i) REQUIRE(bool(s.Command("mark m" + std::to_string(i)).root()["ok"]));
      s.CloseStop();
      REQUIRE(s.Wait().code == 0);
    }
    Recording rec = ReadRecording(out);
    size_t samples = CountSampleLines(rec);
    CHECK(samples >= 302);  // the first, one per mark, the stop's
    ExitResult play = Run({"play", out});
    CHECK(play.code == 0);
    CHECK(play.err.find("warning") == std::string::npos);  // the marks are on stderr
    CHECK(SplitLines(play.out).size() == samples - 1);
    ExitResult phases = Run({"summary", "--phases", "--json", out});
    CHECK(phases.code == 0);
    Json all(phases.out);
    CHECK(all.root().array().size() == 301);  // before the first mark, then one per mark
  }

  TEST_CASE("a 1 ms recording plays one line per pair of samples") {
    TempDir dir;
    std::string out = dir / "fast.pgr.gz";
    ExitResult r = Run({"record", "-i", "0.001", "-t", "1", "-l", out});
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    size_t samples = CheckCleanRecording(out, "timeout");
    CHECK(samples > 100);
    ExitResult play = Run({"play", out});
    CHECK(play.code == 0);
    CHECK(play.err.empty());
    CHECK(SplitLines(play.out).size() == samples - 1);
  }

  TEST_CASE("a recording killed after its second sample plays one line") {
    TempDir dir;
    std::string out = dir / "killed.pgr";
    CommandSession s({"record", "-i", "3600", "-l", out});
    s.ReadReadyLine();
    REQUIRE(bool(s.Command("sample").root()["ok"]));
    s.child().Signal(SIGKILL);
    s.Wait();
    REQUIRE(CountSampleLines(ReadRecording(out)) == 2);
    ExitResult play = Run({"play", out});
    CHECK(play.code == 0);
    CHECK(SplitLines(play.out).size() == 1);
    CHECK(play.err.find("not closed cleanly") != std::string::npos);
  }
}

}  // namespace
}  // namespace pm::test
