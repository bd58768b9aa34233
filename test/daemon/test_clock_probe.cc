// The clock's state as the recorder reads it: adjtimex's answer mapped to
// the format's fields (tables), the clocksource read below --root, and
// what the recorder writes at the start, a mark and the end, held against
// adjtimex(2) called by the test around the same moment.
#include <doctest/doctest.h>
#include <sys/timex.h>

#include <string>

#include "daemon/clock_probe.hh"
#include "test/daemon/stepped_recorder.hh"
#include "test/daemon/test_util.hh"
#include "test/kernel_clock.hh"

namespace pm::test {
namespace {

struct timex Timex(int status, long offset, long maxerror, long esterror) {
  struct timex tx {};
  tx.status = status;
  tx.offset = offset;
  tx.maxerror = maxerror;
  tx.esterror = esterror;
  return tx;
}

}  // namespace

TEST_SUITE("clock probe") {

TEST_CASE("adjtimex's answer: synced unless TIME_ERROR or STA_UNSYNC, offset in ns") {
  struct Row {
    int state, status;
    long offset;
    bool synced;
    int64_t offset_ns;
  };
  for (Row row : {Row{TIME_OK, 0, -12, true, -12'000}, Row{TIME_OK, STA_NANO, -12, true, -12},
                  Row{TIME_INS, STA_PLL, 7, true, 7'000},
                  Row{TIME_ERROR, STA_PLL, 0, false, 0},
                  Row{TIME_OK, STA_UNSYNC, 0, false, 0},
                  Row{TIME_ERROR, STA_UNSYNC | STA_NANO, 3, false, 3}}) {
    CAPTURE(row.state);
    CAPTURE(row.status);
    ClockState c;
    FillDiscipline(row.state, Timex(row.status, row.offset, 1500, 20), c);
    CHECK(c.disciplined);
    CHECK(c.synced == row.synced);
    CHECK(c.offset_ns == row.offset_ns);
    CHECK(c.maxerror_us == 1500);
    CHECK(c.esterror_us == 20);
  }
}

TEST_CASE("the clocksource's name: the file's first line, trailing blanks off") {
  CHECK(ClocksourceName("tsc\n") == "tsc");
  CHECK(ClocksourceName("kvm-clock \n") == "kvm-clock");
  CHECK(ClocksourceName("hpet") == "hpet");
  CHECK(ClocksourceName("") == "");
  CHECK(ClocksourceName("\nrest") == "");
}

TEST_CASE("the clocksource is read below the root: a fake tree's, or none") {
  UniqueFd small = OpenDir(DataDir() / "proc-small");
  CHECK(ClockProbe(small.Get()).Read().source == "hpet");
  UniqueFd old = OpenDir(DataDir() / "proc-old");  // a tree without sys/devices
  ClockState none = ClockProbe(old.Get()).Read();
  CHECK(none.source.empty());
  CHECK(none.disciplined);  // adjtimex answers all the same
}

TEST_CASE("a probe's reading is adjtimex's at that moment") {
  UniqueFd small = OpenDir(DataDir() / "proc-small");
  ClockProbe probe(small.Get());
  KernelClock before = ReadKernelClock();
  ClockState c = probe.Read();
  KernelClock after = ReadKernelClock();
  REQUIRE(c.disciplined);
  CheckHeldBetween({c.synced, c.offset_ns, c.maxerror_us, c.esterror_us}, before, after);
}

TEST_CASE("the recorder writes the clock's state at the start, at each mark and at the end") {
  KernelClock before = ReadKernelClock();
  Stepped s(0, 0, true);
  s.clock.Advance(150 * kMs);
  REQUIRE(!s.Command("mark q1").empty());
  s.Command("pause");
  s.Command("mark paused");  // no sample, the clock all the same
  s.Command("stop");
  KernelClock after = ReadKernelClock();
  REQUIRE(s.recorder.stopped());
  std::vector<Line> lines = s.Lines();
  std::vector<Line> stamped;
  for (const Line& l : lines)
    if (l.Has("\"clock\":")) stamped.push_back(l);
  REQUIRE(stamped.size() == 4);
  CHECK(stamped[0].text == lines[0].text);  // the header
  CHECK(stamped[1].event("mark"));
  CHECK(stamped[2].event("mark"));
  CHECK(stamped[3].event("end"));
  for (const Line& l : stamped) {
    CAPTURE(l.text);
    std::string clock = l.text.substr(l.text.find("\"clock\":"));
    Line c{clock};
    CHECK(c.Has("\"source\":\"hpet\""));  // the fake tree's, not this machine's
    CheckHeldBetween({c.Has("\"synced\":true"), c.Int("offset_ns"), c.Int("maxerror_us"),
                      c.Int("esterror_us")},
                     before, after);
  }
  for (const Line& l : lines)  // never per tick
    if (l.sample()) CHECK_FALSE(l.Has("clock"));
}

}  // TEST_SUITE

}  // namespace pm::test
