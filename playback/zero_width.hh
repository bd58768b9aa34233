// No zero-width intervals: of two samples too close together to make a
// rate, the later one is left out, so that it pairs with neither the
// sample before nor the one after; the next sample then pairs with the
// earlier one, whose interval covers it (counters are cumulative: nothing
// of what happened is lost, only a point). One rule for every reader that
// pairs samples: play's JSON, CSV and OpenMetrics. summary pairs only the
// two ends of each span (and phase): a span whose ends are too close has
// no rates, as a single sample has none (ZeroWidth below); leaving
// samples out inside a span would change nothing of it, and so summary's
// skim, which reads only those ends, reads as the full reading does.
//
// Too close, within a segment (a pause or resume starts a new one):
//   - when both carry the CPU total: not one tick passed on it (no counter
//     moved, none went back) while the clock moved less than one tick
//     (10 ms, USER_HZ, /proc/stat's unit). Every CPU share would be 0/0:
//     play would print 0 for each mode, where they sum to 100 x cores.
//     The kernel's own accounting is the measure of whether time passed,
//     whatever the machine's size: on 2 CPUs 0.25 ms sees no tick, on 64
//     it sees one or two. A CPU total that stood still for longer is data
//     (a frozen guest, a fake /proc), not a width too small to measure.
//   - without the CPU total: the same realtime instant (every rate
//     divides by the realtime difference).
// Under load a late tick and the next deadline can land 0.25 ms apart;
// so can two `sample` commands. A sample earlier than the one before (the
// realtime clock stepped back) is no such case: it is kept, and the pair
// across the step is the readers' to skip, as before.
//
// The rule looks at each sample against the last one kept only; it keeps
// that sample's time and CPU total, nothing else.
#pragma once

#include <array>
#include <cstdint>

#include "playback/raw_sample.hh"

namespace pm {

// Whether `b` came too close after `a` to make a rate with it (the rule
// above): summary applies it to each span's two ends.
bool ZeroWidth(const RawSample& a, const RawSample& b);

class ZeroWidthFilter {
 public:
  static constexpr int64_t kTickNs = 10'000'000;

  // In file order: false when `s` is too close to the last sample kept in
  // its segment (it is left out and counted).
  bool Keep(const RawSample& s);
  // A pause or resume: no pair spans it.
  void Break() { have_prev_ = false; }
  uint64_t left_out() const { return left_out_; }

 private:
  bool TooClose(const RawSample& s) const;

  bool have_prev_ = false;
  int64_t prev_ns_ = 0;
  bool prev_has_cpu_ = false;
  std::array<uint64_t, 8> prev_cpu_{};  // the CPU total's ticks (zero_width.cc)
  uint64_t left_out_ = 0;
};

}  // namespace pm
