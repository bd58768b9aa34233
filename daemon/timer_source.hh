// A timerfd on CLOCK_MONOTONIC with absolute deadlines, as a loop event.
//
// Periodic mode fires at first, first + period, first + 2·period, ... as the
// kernel schedules it: no drift, and a late wake-up reports how many
// deadlines passed (the handler counts the extra ones as missed ticks
// instead of bursting to catch up). Owns its timerfd.
#pragma once

#include <cstdint>

#include "common/unique_fd.hh"
#include "daemon/poll_watcher.hh"

namespace pm {

class TimerSource final : public PollWatcher {
 public:
  class Handler {
   public:
    // `expirations` >= 1: deadlines passed since the last call.
    virtual void OnTimer(TimerSource& timer, uint64_t expirations) noexcept = 0;
    virtual void OnSourceError(const char* what, int err) noexcept = 0;

   protected:
    ~Handler() = default;
  };

  TimerSource(uv_loop_t& loop, Handler& handler);

  // Monotonic nanoseconds. period_ns == 0 arms a one-shot deadline.
  void Arm(int64_t first_mono_ns, int64_t period_ns);
  void Disarm();

 private:
  void OnPoll(int status, int events) noexcept override;

  Handler& handler_;
  UniqueFd fd_;
};

}  // namespace pm
