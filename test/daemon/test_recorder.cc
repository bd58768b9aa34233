// The Recorder's schedule, stepped in-process on a manual clock: ticks,
// start delay, timeout, pause and resume land at exact instants, so the
// counts the contract promises are asserted exactly, with no wall time.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "test/daemon/stepped_recorder.hh"

namespace pm::test {
namespace {

std::vector<int64_t> Every100ms(int64_t from, int64_t to) {
  std::vector<int64_t> v;
  for (int64_t t = from; t <= to; t += 100 * kMs) v.push_back(t);
  return v;
}

TEST_CASE("the timeout: T/I + 1 samples, one per tick, then the trailer") {
  for (int64_t seconds : {1, 3}) {
    CAPTURE(seconds);
    Stepped s(seconds * 1000 * kMs);
    s.clock.Advance(seconds * 1000 * kMs - 1);
    CHECK_FALSE(s.recorder.stopped());
    s.clock.Advance(1);
    REQUIRE(s.recorder.stopped());
    CHECK(s.SampleMonos() == Every100ms(0, seconds * 1000 * kMs));
    Line end = s.Lines().back();
    CHECK(end.event("end"));
    CHECK(end.Has("\"reason\":\"timeout\""));
    CHECK(end.Int("samples") == seconds * 10 + 1);
    CHECK(end.Int("missed_ticks") == 0);
  }
}

TEST_CASE("the start delay: nothing before it, the timeout counted from the start") {
  Stepped s(1000 * kMs, 2000 * kMs);
  s.clock.Advance(2000 * kMs - 1);
  CHECK(s.Lines().empty());
  CHECK(s.recorder.samples() == 0);
  s.clock.Advance(1);
  REQUIRE(s.Lines().size() == 2);  // header and first sample, at the delay's end
  CHECK(s.Lines()[1].Int("mono") == kT0 + 2000 * kMs);
  s.clock.Advance(1000 * kMs);
  REQUIRE(s.recorder.stopped());
  CHECK(s.SampleMonos() == Every100ms(2000 * kMs, 3000 * kMs));
}

TEST_CASE("pause and resume: no sample between, the schedule restarts at resume") {
  Stepped s(0, 0, true);
  s.clock.Advance(250 * kMs);
  s.Command("pause");  // a closing sample at 250 ms, then the pause event
  s.clock.Advance(1000 * kMs);
  CHECK(s.recorder.samples() == 4);
  s.Command("resume");  // the event, a baseline sample at 1250 ms
  s.clock.Advance(150 * kMs);
  s.Command("stop");  // a final sample at 1400 ms
  REQUIRE(s.recorder.stopped());
  std::vector<int64_t> want = {0, 100 * kMs, 200 * kMs, 250 * kMs, 1250 * kMs, 1350 * kMs,
                               1400 * kMs};
  CHECK(s.SampleMonos() == want);
  std::vector<Line> lines = s.Lines();
  REQUIRE(lines.size() == 11);  // header, 7 samples, pause, resume, end
  CHECK(lines[5].event("pause"));
  CHECK(lines[5].Int("mono") == kT0 + 250 * kMs);
  CHECK(lines[6].event("resume"));
  CHECK(lines[6].Int("mono") == kT0 + 1250 * kMs);
  CHECK(lines.back().Has("\"reason\":\"stop-cmd\""));
}

TEST_CASE("the timeout falls while paused: it still stops, without a sample") {
  Stepped s(1000 * kMs, 0, true);
  s.clock.Advance(250 * kMs);
  s.Command("pause");
  s.clock.Advance(750 * kMs);
  REQUIRE(s.recorder.stopped());
  CHECK(s.SampleMonos() == std::vector<int64_t>{0, 100 * kMs, 200 * kMs, 250 * kMs});
  CHECK(s.Lines().back().Has("\"reason\":\"timeout\""));
}

TEST_CASE("a late wake-up: one sample, the passed ticks counted as missed") {
  Stepped s(1000 * kMs);
  s.clock.Jump(550 * kMs);  // five deadlines passed while the process slept
  CHECK(s.recorder.samples() == 2);
  s.clock.Advance(450 * kMs);
  REQUIRE(s.recorder.stopped());
  Line end = s.Lines().back();
  CHECK(end.Int("missed_ticks") == 4);
  CHECK(end.Int("samples") == 7);  // 0, the late one, 600..1000 ms
  CHECK(s.SampleMonos() == std::vector<int64_t>{0, 550 * kMs, 600 * kMs, 700 * kMs,
                                                800 * kMs, 900 * kMs, 1000 * kMs});
}

TEST_CASE("a deadline less than half an interval after the last sample is missed, not taken") {
  Stepped s(1000 * kMs, 0, true);
  s.clock.Jump(560 * kMs);  // late: the deadline at 600 ms is 40 ms away
  s.clock.Advance(40 * kMs);
  CHECK(s.recorder.samples() == 2);
  s.clock.Advance(95 * kMs);
  s.Command("mark m");  // asked for: taken at once, at 695 ms
  s.clock.Advance(5 * kMs);  // the deadline at 700 ms is 5 ms after it
  CHECK(s.recorder.samples() == 3);
  s.clock.Advance(50 * kMs);
  s.Command("sample");  // asked for, 50 ms before the next deadline: taken
  s.clock.Advance(300 * kMs);
  REQUIRE(s.recorder.stopped());
  CHECK(s.SampleMonos() == std::vector<int64_t>{0, 560 * kMs, 695 * kMs, 750 * kMs, 800 * kMs,
                                                900 * kMs, 1000 * kMs});
  CHECK(s.Lines().back().Int("missed_ticks") == 4 + 1 + 1);  // 100..500, 600, 700
}

TEST_CASE("mark and sample during the start delay are refused, pause chooses the start") {
  Stepped s(0, 1000 * kMs, true);
  s.Command("mark early");
  s.Command("pause");
  s.clock.Advance(1000 * kMs);
  CHECK(s.recorder.samples() == 0);  // started paused
  std::vector<Line> lines = s.Lines();
  REQUIRE(lines.size() == 2);  // the header and the pause it starts in: no mark
  CHECK(lines[1].event("pause"));
  CHECK(lines[1].Int("mono") == kT0 + 1000 * kMs);  // the start, not the command
  s.Command("resume");
  CHECK(s.recorder.samples() == 1);
  s.Command("stop");
  CHECK(s.recorder.stopped());
}

}  // namespace
}  // namespace pm::test
