// A timerfd on CLOCK_MONOTONIC with absolute deadlines, as a loop event:
// the system clock's Timer.
//
// Periodic mode fires at first, first + period, first + 2·period, ... as the
// kernel schedules it: no drift, and a late wake-up reports how many
// deadlines passed (the handler counts the extra ones as missed ticks
// instead of bursting to catch up). Owns its timerfd.
#pragma once

#include <cstdint>

#include "common/unique_fd.hh"
#include "daemon/loop_clock.hh"
#include "daemon/poll_watcher.hh"

namespace pm {

class TimerSource final : public PollWatcher, public Timer {
 public:
  using Handler = TimerHandler;

  TimerSource(uv_loop_t& loop, Handler& handler);

  // Monotonic nanoseconds. period_ns == 0 arms a one-shot deadline.
  void Arm(int64_t first_mono_ns, int64_t period_ns) override;
  void Disarm() override;
  void Close() noexcept override { PollWatcher::Close(); }

 private:
  void OnPoll(int status, int events) noexcept override;

  Handler& handler_;
  UniqueFd fd_;
};

}  // namespace pm
