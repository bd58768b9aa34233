// Format v2's sample lines (man/pgr.5): each integer of a sample line as
// the difference from the same position in the sample line before, with
// periodic keyframes that are plain v1 lines.
//
// The transform works on the text, token by token, and knows nothing of
// the collectors: a sample line is split into its integers and the text
// around them (its shape: keys, brackets, commas, nulls). A difference
// line has the shape of the line before with `{"d":1,` in place of `{`
// and each integer replaced by (this - previous) as a signed 64-bit
// number (negative after a counter reset, read back exactly by wrapping
// addition). Any change of shape (a row that became null, a new member)
// makes the line a keyframe, so a reader never has to guess.
//
// Both directions run once per sample, so each is one walk that compares
// the line with the baseline 8 bytes at a time and stops only where an
// integer changed (most do not): the shape is checked on the way, and the
// text around unchanged integers is copied in one piece (proto/pgr_baseline.hh).
// The writer's direction is here; the readers' is playback/reading/delta_decoder.hh.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "proto/pgr_baseline.hh"

namespace pm {

inline constexpr std::string_view kDeltaLinePrefix = "{\"d\":1,";

class DeltaEncoder {
 public:
  static constexpr uint64_t kKeyframeEvery = 64;               // samples
  static constexpr int64_t kKeyframeMaxNs = 10'000'000'000;    // 10 s

  // The next sample line is a keyframe (first sample, after a resume).
  void ForceKeyframe() noexcept { force_keyframe_ = true; }

  // The line to write for sample line `line` taken at `mono_ns`: `line`
  // itself when it is a keyframe, otherwise a difference line in a buffer
  // valid until the next call. Allocates nothing in steady state.
  std::string_view Encode(std::string_view line, int64_t mono_ns);

  uint64_t keyframes() const noexcept { return keyframes_; }

 private:
  bool KeyframeDue(int64_t mono_ns) const;

  Baseline prev_;
  bool have_prev_ = false;
  std::string unsplit_;  // a keyframe of a new shape, split at the next sample
  bool force_keyframe_ = false;
  uint64_t since_keyframe_ = 0;
  int64_t keyframe_mono_ns_ = 0;
  uint64_t keyframes_ = 0;
  LineBuffer out_;
};

}  // namespace pm
