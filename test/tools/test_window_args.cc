// --from / --to / --phase (tools/readers/window_args.hh): each form of WHEN, and
// the one-line usage errors, on tables.
#include <doctest/doctest.h>

#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

#include "common/error.hh"
#include "tools/readers/window_args.hh"

using pm::WindowBound;
using Kind = pm::WindowBound::Kind;

namespace {

constexpr int64_t kSec = 1'000'000'000;

std::string ErrorOf(std::string_view text) {
  try {
    pm::ParseWindowBound("from", text);
  } catch (const pm::UsageError& e) {
    return e.what();
  }
  return "no error";
}

// RFC 3339 without an offset is local time: TZ set for the test's rows.
class ZoneForTest {
 public:
  explicit ZoneForTest(const char* zone) {
    if (const char* tz = std::getenv("TZ")) saved_ = tz;
    setenv("TZ", zone, 1);
    tzset();
  }
  ~ZoneForTest() {
    if (saved_) setenv("TZ", saved_->c_str(), 1);
    else unsetenv("TZ");
    tzset();
  }

 private:
  std::optional<std::string> saved_;
};

}  // namespace

TEST_CASE("window bounds: elapsed time, wall-clock time, time of day, mark") {
  ZoneForTest zone("Europe/Paris");  // UTC+2 on 1 May 2024
  struct Row {
    std::string_view text;
    Kind kind;
    int64_t ns;
  };
  const int64_t noon_utc = 1'714'564'800 * kSec;  // 2024-05-01T12:00:00Z
  const Row rows[] = {
      {"30", Kind::kElapsed, 30 * kSec},
      {"1.5", Kind::kElapsed, 1'500'000'000},
      {"1m30s", Kind::kElapsed, 90 * kSec},
      {"500ms", Kind::kElapsed, 500'000'000},
      {"0", Kind::kElapsed, 0},
      {"2024-05-01T12:00:00Z", Kind::kWallClock, noon_utc},
      {"2024-05-01t12:00:00z", Kind::kWallClock, noon_utc},
      {"2024-05-01 12:00:00.25Z", Kind::kWallClock, noon_utc + 250'000'000},
      {"2024-05-01T14:00:00+02:00", Kind::kWallClock, noon_utc},
      {"2024-05-01T09:30:00-02:30", Kind::kWallClock, noon_utc},
      {"2024-05-01T14:00:00", Kind::kWallClock, noon_utc},  // local: TZ's
      {"2024-05-01 14:00", Kind::kWallClock, noon_utc},     // sar's, to the minute
      {"2024-05-01T12:00Z", Kind::kWallClock, noon_utc},
      {"12:00", Kind::kTimeOfDay, 12 * 3600 * kSec},
      {"23:59:59", Kind::kTimeOfDay, (24 * 3600 - 1) * kSec},
      {"00:00:01.000000001", Kind::kTimeOfDay, kSec + 1},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    WindowBound b = pm::ParseWindowBound("from", row.text);
    CHECK(b.kind == row.kind);
    CHECK(b.ns == row.ns);
    CHECK(b.given == row.text);
  }
  WindowBound mark = pm::ParseWindowBound("to", "mark:q42-end");
  CHECK(mark.kind == Kind::kMark);
  CHECK(mark.mark == "q42-end");
  CHECK(pm::ParseWindowBound("to", "mark:a:b").mark == "a:b");  // the rest is the label
}

TEST_CASE("window bounds: today, yesterday, --last, and sar's -s DATE -e TIME") {
  ZoneForTest zone("Europe/Paris");
  WindowBound today = pm::ParseWindowBound("from", "today");
  WindowBound yesterday = pm::ParseWindowBound("from", "yesterday");
  CHECK(today.kind == Kind::kWallClock);
  int64_t now = static_cast<int64_t>(std::time(nullptr)) * kSec;
  CHECK(today.ns <= now);
  CHECK(now - today.ns < 25 * 3600 * kSec);
  CHECK(today.ns - yesterday.ns >= 23 * 3600 * kSec);  // a DST day is 23 or 25 hours
  CHECK(today.ns - yesterday.ns <= 25 * 3600 * kSec);
  WindowBound last = pm::LastBound("15m");
  CHECK(last.kind == Kind::kWallClock);
  CHECK(now - last.ns >= 15 * 60 * kSec);
  CHECK(now - last.ns < 16 * 60 * kSec);
  CHECK_THROWS_AS(pm::LastBound("soon"), pm::UsageError);
  // --to 03:30 after --from that night's 03:00: the same night, not the
  // recording's first day; 01:00 is the next morning.
  const int64_t three = 1'714'525'200 * kSec;  // 2024-05-01T03:00:00+02:00
  pm::WindowSpec w;
  w.from = pm::ParseWindowBound("from", "2024-05-01 03:00");
  CHECK(w.from.ns == three);
  w.to = pm::ParseWindowBound("to", "03:30");
  pm::CheckWindow(w);
  CHECK(w.to.kind == Kind::kWallClock);
  CHECK(w.to.ns == three + 1800 * kSec);
  w.to = pm::ParseWindowBound("to", "01:00");
  pm::CheckWindow(w);
  CHECK(w.to.ns == three + 22 * 3600 * kSec);
}

TEST_CASE("window bounds: anything else is one line naming the forms") {
  const std::string forms =
      "': give elapsed time (30, 1m30s), a wall-clock time (2024-05-01T12:00:00Z, "
      "'2024-05-01 12:00', 12:00, yesterday) or mark:LABEL";
  for (std::string_view bad :
       {"tomorrow", "", "-5", "24:00", "12:60", "12:00:60", "12:00.", "2024-13-01T00:00:00Z",
        "2024-05-01", "2024-05-01T12", "2024-05-01T12:00:00+2", "2024-05-01T12:00:00Zx",
        "1:00"}) {
    CAPTURE(bad);
    CHECK(ErrorOf(bad) == "--from '" + std::string(bad) + forms);
  }
  CHECK(ErrorOf("mark:") == "--from 'mark:': name the mark (mark:LABEL)");
}

TEST_CASE("a window: --phase alone, and --from before --to when both compare") {
  auto check = [](pm::WindowSpec spec) -> std::string {
    try {
      pm::CheckWindow(spec);
    } catch (const pm::UsageError& e) {
      return e.what();
    }
    return "no error";
  };
  pm::WindowSpec w;
  w.from = pm::ParseWindowBound("from", "2m");
  w.to = pm::ParseWindowBound("to", "90s");
  CHECK(check(w) == "--from 2m is after --to 90s: give the earlier time first");
  w.to = pm::ParseWindowBound("to", "2m");  // one instant: a window of its samples
  CHECK(check(w) == "no error");
  w.to = pm::ParseWindowBound("to", "12:00");  // elapsed against a time of day: at reading
  CHECK(check(w) == "no error");
  pm::WindowSpec p;
  p.phase = "q1";
  CHECK(check(p) == "no error");
  p.to = pm::ParseWindowBound("to", "mark:q2");
  CHECK(check(p) == "--phase is a window of its own: not with --from or --to");
}
