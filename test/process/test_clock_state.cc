// The clock's state in a real recording of this machine: what the
// recorder wrote at the start, at a mark and at the end against
// adjtimex(2) called by the test around each of those moments and the
// clocksource sysfs names; then the same states as summary (text, JSON,
// its warning) and play --events show them.
#include <doctest/doctest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "test/kernel_clock.hh"
#include "test/process/json.hh"
#include "test/process/recording.hh"
#include "test/process/spawn.hh"

namespace pm::test {
namespace {

struct ClockRead {
  KernelClock kernel;
  std::string source;
  bool operator==(const ClockRead&) const = default;
};

std::string SysfsClocksource() {
  std::ifstream in("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  std::getline(in, name);
  return name;
}

ClockRead Of(const JsonValue& clock) {
  REQUIRE(clock.is_object());
  ClockRead c;
  c.kernel = {bool(clock["synced"]), int64_t(clock["offset_ns"]), int64_t(clock["maxerror_us"]),
              int64_t(clock["esterror_us"])};
  if (clock["source"].exists()) c.source = std::string(std::string_view(clock["source"]));
  return c;
}

// Held by the kernel between the test's two calls, and sysfs's clocksource.
void CheckBracketed(const ClockRead& got, const KernelClock& before, const KernelClock& after) {
  CheckHeldBetween(got.kernel, before, after);
  CHECK(got.source == SysfsClocksource());
}

}  // namespace

TEST_SUITE("clock") {

TEST_CASE("the clock's state at the start, a mark and the end, as adjtimex says then") {
  TempDir dir;
  std::string path = dir / "clock.pgr.gz";
  KernelClock before_start = ReadKernelClock();
  CommandSession s({"record", "-l", path, "-i", "3600"});
  s.ReadReadyLine();  // the header is on disk
  KernelClock after_start = ReadKernelClock();
  KernelClock before_mark = ReadKernelClock();
  REQUIRE(bool(s.Command("mark q1").root()["ok"]));
  KernelClock after_mark = ReadKernelClock();
  KernelClock before_end = ReadKernelClock();
  s.CloseStop();
  REQUIRE(s.Wait().code == 0);
  KernelClock after_end = ReadKernelClock();

  Recording rec = ReadRecording(path);
  Json header(rec.lines.front()), end(rec.lines.back());
  std::vector<Json> marks;
  for (const std::string& line : rec.lines)
    if (line.starts_with(R"({"event":"mark")")) marks.emplace_back(line);
  REQUIRE(marks.size() == 1);
  REQUIRE(end.Str("event") == "end");
  ClockRead start = Of(header.root()["clock"]), mark = Of(marks[0].root()["clock"]),
            stop = Of(end.root()["clock"]);
  CheckBracketed(start, before_start, after_start);
  CheckBracketed(mark, before_mark, after_mark);
  CheckBracketed(stop, before_end, after_end);

  SUBCASE("play --events: the start, the mark and the end with their states") {
    ExitResult r = Run({"play", "--events", path});
    REQUIRE(r.code == 0);
    std::vector<ClockRead> shown;
    for (const std::string& line : SplitLines(r.out)) {
      Json j(line);
      if (j.Has("clock")) shown.push_back(Of(j.root()["clock"]));
    }
    CHECK(shown == std::vector<ClockRead>{start, mark, stop});
  }

  SUBCASE("summary --all --json: the start's and the end's; a warning when not synchronised") {
    ExitResult r = Run({"summary", "--all", "--json", path});
    REQUIRE(r.code == 0);
    Json j(r.out);
    CHECK(Of(j.root()["clock"]["start"]) == start);
    CHECK(Of(j.root()["clock"]["end"]) == stop);
    bool synced = start.kernel.synced && mark.kernel.synced && stop.kernel.synced;
    // A 3600 s interval: no maximum error exceeds it, so only the first
    // warning can be due.
    CHECK((r.err.find("warning: " + path + ": the clock was not synchronised at ") !=
           std::string::npos) == !synced);
    CHECK(r.err.find("maximum error") == std::string::npos);
  }

  SUBCASE("summary --all: the Clock block before Metadata") {
    ExitResult r = Run({"summary", "--all", "--no-pager", path});
    REQUIRE(r.code == 0);
    std::string words = start.kernel.synced ? "synchronised" : "not synchronised";
    CHECK(r.out.find("\nClock:\n  at start: " + words + ", offset ") != std::string::npos);
    CHECK(r.out.find("\n    at end: ") != std::string::npos);
  }
}

}  // TEST_SUITE

}  // namespace pm::test
