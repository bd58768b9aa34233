// A Clock a test steps by hand: the Recorder's ticks, start delay and
// timeout fire at exact instants, in-process, with no wall time spent.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "daemon/loop_clock.hh"

namespace pm::test {

class ManualClock final : public Clock {
 public:
  static constexpr int64_t kStartMono = 1'000'000'000'000;       // 1000 s
  static constexpr int64_t kRealOffset = 1'790'000'000'000'000'000;  // 2026

  int64_t RealtimeNs() override { return mono_ + kRealOffset; }
  int64_t MonoNs() override { return mono_; }
  std::unique_ptr<Timer> MakeTimer(uv_loop_t&, TimerHandler& handler) override {
    return std::make_unique<ManualTimer>(*this, handler);
  }

  // Moves time to `mono`, firing every deadline on the way at its own
  // instant, one expiration at a time: a machine that is never late.
  void AdvanceTo(int64_t mono) {
    while (ManualTimer* next = EarliestDue(mono)) {
      mono_ = std::max(mono_, next->next_);
      next->Fire(1);
    }
    mono_ = std::max(mono_, mono);
  }
  void Advance(int64_t ns) { AdvanceTo(mono_ + ns); }

  // Moves time on at once, as a late wake-up does (SIGSTOP, a loaded
  // machine): each due timer fires once, reporting every deadline passed.
  void Jump(int64_t ns) {
    mono_ += ns;
    std::vector<ManualTimer*> due;
    for (ManualTimer* t : timers_)
      if (t->armed() && t->next_ <= mono_) due.push_back(t);
    for (ManualTimer* t : due) {
      if (!t->armed() || t->next_ > mono_) continue;  // changed by an earlier one
      uint64_t n = t->period_ > 0 ? static_cast<uint64_t>((mono_ - t->next_) / t->period_) + 1 : 1;
      t->Fire(n);
    }
  }

 private:
  class ManualTimer final : public Timer {
   public:
    ManualTimer(ManualClock& clock, TimerHandler& handler) : clock_(clock), handler_(handler) {
      clock_.timers_.push_back(this);
    }
    ~ManualTimer() override { std::erase(clock_.timers_, this); }
    void Arm(int64_t first, int64_t period) override {
      next_ = std::max<int64_t>(first, 1);
      period_ = period;
    }
    void Disarm() override { next_ = 0; }
    void Close() noexcept override { next_ = 0; }
    bool armed() const { return next_ > 0; }
    // The schedule moves on before the handler runs: it may re-arm.
    void Fire(uint64_t n) {
      if (period_ > 0) next_ += static_cast<int64_t>(n) * period_;
      else next_ = 0;
      handler_.OnTimer(*this, n);
    }

    ManualClock& clock_;
    TimerHandler& handler_;
    int64_t next_ = 0;  // 0: disarmed
    int64_t period_ = 0;
  };

  ManualTimer* EarliestDue(int64_t until) const {
    ManualTimer* best = nullptr;
    for (ManualTimer* t : timers_)  // ties: the first created fires first
      if (t->armed() && t->next_ <= until && (!best || t->next_ < best->next_)) best = t;
    return best;
  }

  int64_t mono_ = kStartMono;
  std::vector<ManualTimer*> timers_;
};

}  // namespace pm::test
