#include "daemon/test_clock.hh"

#include <cstdlib>
#include <string>

namespace pm {
namespace {

class ShiftedClock final : public Clock {
 public:
  explicit ShiftedClock(const TestClockSetting& setting)
      : setting_(setting), mono0_(SystemClock().MonoNs()) {}
  int64_t RealtimeNs() override {
    return setting_.start_ns + (SystemClock().MonoNs() - mono0_) * setting_.speed;
  }
  int64_t MonoNs() override { return SystemClock().MonoNs(); }
  std::unique_ptr<Timer> MakeTimer(uv_loop_t& loop, TimerHandler& handler) override {
    return SystemClock().MakeTimer(loop, handler);
  }

 private:
  TestClockSetting setting_;
  int64_t mono0_;
};

}  // namespace

std::optional<TestClockSetting> ParseTestClock(std::string_view text) {
  std::string s(text);
  char* end = nullptr;
  double start = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || !(start >= 0 && start < 1e10)) return std::nullopt;
  TestClockSetting setting{static_cast<int64_t>(start * 1e9), 1};
  if (*end == '\0') return setting;
  if (*end != ':') return std::nullopt;
  char* speed_end = nullptr;
  long long speed = std::strtoll(end + 1, &speed_end, 10);
  if (*speed_end != '\0' || speed < 1 || speed > 1'000'000) return std::nullopt;
  setting.speed = speed;
  return setting;
}

std::unique_ptr<Clock> MakeTestClock(const TestClockSetting& setting) {
  return std::make_unique<ShiftedClock>(setting);
}

}  // namespace pm
