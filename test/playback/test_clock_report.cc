// What summary says of the clock: its words for one state and the
// warnings a recording's states call for (not synchronised, a maximum
// error beyond the sampling interval), each named by where it was seen.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "playback/reports/clock_report.hh"

using namespace pm;

namespace {

ClockState Synced(int64_t maxerror_us) {
  return {.disciplined = true, .synced = true, .offset_ns = 0, .maxerror_us = maxerror_us,
          .esterror_us = 10, .source = "tsc"};
}

ClockState Unsynced() {
  return {.disciplined = true, .synced = false, .offset_ns = 0, .maxerror_us = 16'000'000,
          .esterror_us = 16'000'000, .source = "kvm-clock"};
}

RecordingInfo Info(std::optional<ClockState> clock, int64_t interval_ns = 10'000'000) {
  RecordingInfo info;
  info.interval_ns = interval_ns;
  info.clock = std::move(clock);
  return info;
}

RecordingEvent Event(std::string kind, std::optional<ClockState> clock,
                     std::string label = {}) {
  RecordingEvent e;
  e.kind = std::move(kind);
  e.label = std::move(label);
  e.clock = std::move(clock);
  return e;
}

}  // namespace

TEST_SUITE("clock report") {

TEST_CASE("one state in words: each part only when recorded") {
  CHECK(DescribeClock(Synced(2'500)) ==
        "synchronised, offset 0.000 ms, max error 2.500 ms, est. error 0.010 ms, "
        "clocksource tsc");
  CHECK(DescribeClock(Unsynced()).starts_with("not synchronised, offset 0.000 ms, "
                                              "max error 16000.000 ms"));
  CHECK(DescribeClock({.source = "hp\x01" "et"}) == "clocksource hp\\x01et");
  CHECK(DescribeClock({}) == "unknown");
}

TEST_CASE("no warning: synchronised within the interval, or no state recorded") {
  ClockHistory good(Info(Synced(9'000)));
  good.OnEvent(Event("mark", Synced(10'000), "q1"));
  good.OnEvent(Event("end", Synced(4'000)));
  CHECK(good.Warnings().empty());
  CHECK(good.start()->maxerror_us == 9'000);
  CHECK(good.end()->maxerror_us == 4'000);
  ClockHistory old(Info(std::nullopt));
  old.OnEvent(Event("mark", std::nullopt, "q1"));
  old.OnEvent(Event("end", std::nullopt));
  CHECK(old.empty());
  CHECK(old.Warnings().empty());
  ClockHistory legacy(Info(std::nullopt, 0));  // no interval known: nothing to hold it to
  legacy.OnEvent(Event("end", Synced(1'000'000)));
  CHECK(legacy.Warnings().empty());
}

TEST_CASE("not synchronised: one warning, where it was first seen") {
  ClockHistory h(Info(Synced(1'000)));
  h.OnEvent(Event("pause", Unsynced()));  // only marks and the end carry states
  h.OnEvent(Event("mark", Unsynced(), "q\n2"));
  h.OnEvent(Event("end", Unsynced()));
  std::vector<std::string> w = h.Warnings();
  REQUIRE(w.size() == 1);  // the unsynchronised 16 s is the kernel's cap: no second line
  CHECK(w[0] == "the clock was not synchronised at mark 'q\\n2' (adjtimex): its times may "
                "not line up with another host's");
}

TEST_CASE("a maximum error beyond the interval: the largest, and where") {
  ClockHistory h(Info(Synced(12'000)));
  h.OnEvent(Event("mark", Synced(30'000), "q1"));
  h.OnEvent(Event("end", Synced(20'000)));
  std::vector<std::string> w = h.Warnings();
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "the clock's maximum error was 30.000 ms at mark 'q1', more than the "
                "10.000 ms interval: samples may not line up with another host's");
  ClockHistory both(Info(Unsynced()));
  both.OnEvent(Event("end", Synced(11'000)));
  std::vector<std::string> two = both.Warnings();
  REQUIRE(two.size() == 2);
  CHECK(two[0].find("not synchronised at the start") != std::string::npos);
  CHECK(two[1].find("11.000 ms at the end") != std::string::npos);
}

TEST_CASE("the interval is the bound: just above warns, equal does not; huge values hold") {
  ClockHistory equal(Info(Synced(10'000)));  // 10 ms, the 10 ms interval
  CHECK(equal.Warnings().empty());
  ClockHistory above(Info(Synced(10'001)));
  CHECK(above.Warnings().size() == 1);
  ClockHistory odd(Info(Synced(10'000), 10'000'500));  // an interval of 10.0005 ms
  CHECK(odd.Warnings().empty());
  ClockHistory hostile(Info(Synced(INT64_MAX)));  // a file may say anything
  REQUIRE(hostile.Warnings().size() == 1);
  CHECK(hostile.Warnings()[0].find(", more than the 10.000 ms interval") != std::string::npos);
}

}  // TEST_SUITE
