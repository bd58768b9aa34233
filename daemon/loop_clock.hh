// The Recorder's time, injected: the two clocks a sample carries and the
// timers that schedule ticks, the start delay and the timeout.
//
// SystemClock() is the real thing (clock_gettime and timerfds on the uv
// loop). A test substitutes a clock it steps by hand (test/daemon/
// manual_clock.hh), so pause, resume, start delay and timeout run in-process
// to exact instants, without waiting for wall time.
#pragma once

#include <uv.h>

#include <cstdint>
#include <memory>

namespace pm {

class Timer;

class TimerHandler {
 public:
  // `expirations` >= 1: deadlines passed since the last call (a late
  // wake-up reports several at once).
  virtual void OnTimer(Timer& timer, uint64_t expirations) noexcept = 0;
  virtual void OnSourceError(const char* what, int err) noexcept = 0;

 protected:
  ~TimerHandler() = default;
};

// Absolute deadlines on the clock's monotonic time.
class Timer {
 public:
  virtual ~Timer() = default;
  // period_ns == 0 arms a one-shot deadline. Throws std::system_error.
  virtual void Arm(int64_t first_mono_ns, int64_t period_ns) = 0;
  virtual void Disarm() = 0;
  virtual void Close() noexcept = 0;  // before the loop's last run
};

class Clock {
 public:
  virtual ~Clock() = default;
  virtual int64_t RealtimeNs() = 0;  // CLOCK_REALTIME
  virtual int64_t MonoNs() = 0;      // CLOCK_MONOTONIC
  virtual std::unique_ptr<Timer> MakeTimer(uv_loop_t& loop, TimerHandler& handler) = 0;
};

Clock& SystemClock();

}  // namespace pm
