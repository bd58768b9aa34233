// The clock's state in a real recording of this machine: what the
// recorder wrote at the start, at a mark and at the end against
// adjtimex(2) called by the test around each of those moments and the
// clocksource sysfs names; then the same states as summary (text, JSON,
// its warning) and play --events show them.
#include <doctest/doctest.h>
#include <sys/timex.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "test/process/json.hh"
#include "test/process/recording.hh"
#include "test/process/spawn.hh"

namespace pm::test {
namespace {

struct ClockRead {
  bool synced = false;
  int64_t offset_ns = 0, maxerror_us = 0, esterror_us = 0;
  std::string source;
  bool operator==(const ClockRead&) const = default;
};

// The kernel's answer now, read as pgr(5) says the recorder must.
ClockRead Adjtimex() {
  struct timex tx {};
  int rc = ::adjtimex(&tx);
  REQUIRE(rc >= 0);
  return {rc != TIME_ERROR && !(tx.status & STA_UNSYNC),
          (tx.status & STA_NANO) ? int64_t{tx.offset} : int64_t{tx.offset} * 1000,
          tx.maxerror, tx.esterror, {}};
}

std::string SysfsClocksource() {
  std::ifstream in("/sys/devices/system/clocksource/clocksource0/current_clocksource");
  std::string name;
  std::getline(in, name);
  return name;
}

ClockRead Of(const JsonValue& clock) {
  REQUIRE(clock.is_object());
  ClockRead c;
  c.synced = bool(clock["synced"]);
  c.offset_ns = int64_t(clock["offset_ns"]);
  c.maxerror_us = int64_t(clock["maxerror_us"]);
  c.esterror_us = int64_t(clock["esterror_us"]);
  if (clock["source"].exists()) c.source = std::string(std::string_view(clock["source"]));
  return c;
}

bool Between(int64_t v, int64_t a, int64_t b) {
  return std::min(a, b) <= v && v <= std::max(a, b);
}

// A value the kernel held between the test's two calls: exact while
// nothing changed, and maxerror grows 500 µs a second.
void CheckBracketed(const ClockRead& got, const ClockRead& before, const ClockRead& after) {
  CHECK((got.synced == before.synced || got.synced == after.synced));
  CHECK(Between(got.offset_ns, before.offset_ns, after.offset_ns));
  CHECK(Between(got.maxerror_us, before.maxerror_us, after.maxerror_us));
  CHECK(Between(got.esterror_us, before.esterror_us, after.esterror_us));
  CHECK(got.source == SysfsClocksource());
}

}  // namespace

TEST_SUITE("clock") {

TEST_CASE("the clock's state at the start, a mark and the end, as adjtimex says then") {
  TempDir dir;
  std::string path = dir / "clock.pgr.gz";
  ClockRead before_start = Adjtimex();
  CommandSession s({"record", "-l", path, "-i", "3600"});
  s.ReadReadyLine();  // the header is on disk
  ClockRead after_start = Adjtimex();
  ClockRead before_mark = Adjtimex();
  REQUIRE(bool(s.Command("mark q1").root()["ok"]));
  ClockRead after_mark = Adjtimex();
  ClockRead before_end = Adjtimex();
  s.CloseStop();
  REQUIRE(s.Wait().code == 0);
  ClockRead after_end = Adjtimex();

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

  SUBCASE("summary --json: the start's and the end's; a warning when not synchronised") {
    ExitResult r = Run({"summary", "--json", path});
    REQUIRE(r.code == 0);
    Json j(r.out);
    CHECK(Of(j.root()["clock"]["start"]) == start);
    CHECK(Of(j.root()["clock"]["end"]) == stop);
    bool synced = start.synced && mark.synced && stop.synced;
    // A 3600 s interval: no maximum error exceeds it, so only the first
    // warning can be due.
    CHECK((r.err.find("warning: " + path + ": the clock was not synchronised at ") !=
           std::string::npos) == !synced);
    CHECK(r.err.find("maximum error") == std::string::npos);
  }

  SUBCASE("summary: the Clock block before Metadata") {
    ExitResult r = Run({"summary", "--no-pager", path});
    REQUIRE(r.code == 0);
    std::string words = start.synced ? "synchronised" : "not synchronised";
    CHECK(r.out.find("\nClock:\n  at start: " + words + ", offset ") != std::string::npos);
    CHECK(r.out.find("\n    at end: ") != std::string::npos);
  }
}

}  // TEST_SUITE

}  // namespace pm::test
