// ActiveSpan and PhaseWalk: gaps taken out of the counters and the time,
// the plain first->last pair without a gap, phases summing to the whole.
#include <doctest/doctest.h>

#include "playback/outputs/phases.hh"
#include "test/playback/sample_rows.hh"

namespace pm {
namespace {

RawSample At(int64_t t_s, uint64_t writes) {
  RawSample s;
  s.time_ns = t_s * 1'000'000'000;
  test::DiskCounters d{};
  d[4] = writes;
  test::AddDisk(s, "vda", d);
  return s;
}

RecordingEvent Event(const char* kind, int64_t t_s, const char* label = "") {
  RecordingEvent e;
  e.kind = kind;
  e.time_ns = t_s * 1'000'000'000;
  e.label = label;
  return e;
}

uint64_t Writes(const RawSample& s) { return test::Row(s, "disk", "vda").at(4); }

TEST_CASE("ActiveSpan: no gap is the plain pair; a gap is taken out") {
  ActiveSpan plain;
  plain.Sample(At(0, 0));
  plain.Sample(At(5, 50));
  CHECK(plain.ActiveEnd().time_ns == At(5, 0).time_ns);
  CHECK(Writes(plain.ActiveEnd()) == 50);
  CHECK_FALSE(plain.has_pauses());

  PhaseWalk walk(true);
  walk.OnSample(At(0, 0));
  walk.OnSample(At(2, 20));
  walk.OnEvent(Event("mark", 2, "m1"));
  walk.OnSample(At(4, 30));
  walk.OnEvent(Event("pause", 4));
  walk.OnEvent(Event("mark", 7, "idle"));
  walk.OnEvent(Event("resume", 10));
  walk.OnSample(At(10, 1000));
  walk.OnSample(At(11, 1010));
  const ActiveSpan& whole = walk.whole();
  CHECK(whole.has_pauses());
  CHECK(whole.paused_ns() == 6'000'000'000);
  CHECK(whole.ActiveEnd().time_ns == 5'000'000'000);  // 4 s + 1 s active
  CHECK(Writes(whole.ActiveEnd()) == 40);

  const std::vector<Phase>& phases = walk.phases();
  REQUIRE(phases.size() == 3);
  CHECK(phases[0].label == "start");
  CHECK(phases[1].label == "m1");
  CHECK(phases[2].label == "idle");
  uint64_t writes = 0;
  int64_t active = 0, paused = 0;
  for (const Phase& p : phases) {
    RawSample end = p.span.ActiveEnd();
    writes += Writes(end) - Writes(p.span.first());
    active += end.time_ns - p.span.first().time_ns;
    paused += p.span.paused_ns();
  }
  CHECK(writes == 40);
  CHECK(active == 5'000'000'000);
  CHECK(paused == 6'000'000'000);
  CHECK(phases[1].span.paused_ns() == 3'000'000'000);
}

}  // namespace
}  // namespace pm

namespace pm {
namespace {

// Stopped while paused: no sample closes the gap, the end trailer does.
TEST_CASE("PhaseWalk: a pause open at the end counts up to the end trailer") {
  PhaseWalk walk(true);
  walk.OnSample(At(0, 0));
  walk.OnSample(At(2, 20));
  walk.OnEvent(Event("mark", 2, "tail"));
  walk.OnSample(At(3, 25));
  walk.OnEvent(Event("pause", 3));
  walk.OnEvent(Event("end", 8));
  CHECK(walk.whole().paused_ns() == 5'000'000'000);
  CHECK(walk.whole().ActiveEnd().time_ns == 3'000'000'000);
  REQUIRE(walk.phases().size() == 2);
  CHECK(walk.phases()[0].span.paused_ns() == 0);
  CHECK(walk.phases()[1].span.paused_ns() == 5'000'000'000);
  CHECK(walk.phases()[1].span.has_pauses());
}

}  // namespace
}  // namespace pm

namespace pm {
namespace {

// --start-paused: a pause right after the header, before any sample.
TEST_CASE("PhaseWalk: started paused, the time up to the first resume is paused") {
  PhaseWalk walk(true);
  walk.OnEvent(Event("pause", 0));
  walk.OnEvent(Event("mark", 1, "q1"));
  walk.OnEvent(Event("resume", 4));
  walk.OnSample(At(4, 0));
  walk.OnSample(At(6, 20));
  CHECK(walk.whole().has_pauses());
  CHECK(walk.whole().paused_ns() == 4'000'000'000);
  CHECK(walk.whole().ActiveEnd().time_ns - walk.whole().first().time_ns == 2'000'000'000);
  REQUIRE(walk.phases().size() == 2);
  CHECK(walk.phases()[0].span.paused_ns() == 1'000'000'000);
  CHECK(walk.phases()[1].span.paused_ns() == 3'000'000'000);
  CHECK(Writes(walk.phases()[1].span.ActiveEnd()) == 20);
}

}  // namespace
}  // namespace pm
