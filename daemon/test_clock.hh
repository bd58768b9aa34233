// The test-only clock (docs/testing.md): PERFMONGER_TEST_CLOCK=START[:SPEED]
// in the recorder's environment makes its wall clock start at START (Unix
// seconds, a fraction allowed) and run SPEED times as fast as the
// monotonic clock (default 1), so that a test crosses simulated midnights
// in seconds. Only the wall clock moves: intervals, ticks and every rate
// still come from the real monotonic clock.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "daemon/loop_clock.hh"

namespace pm {

inline constexpr char kTestClockVariable[] = "PERFMONGER_TEST_CLOCK";

struct TestClockSetting {
  int64_t start_ns = 0;
  int64_t speed = 1;
};
// nullopt: not START[:SPEED] with START >= 0 and 1 <= SPEED <= 10^6.
std::optional<TestClockSetting> ParseTestClock(std::string_view text);

// The system's clock with its wall clock moved as `setting` says.
std::unique_ptr<Clock> MakeTestClock(const TestClockSetting& setting);

}  // namespace pm
