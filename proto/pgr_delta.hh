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
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "proto/pgr_baseline.hh"
#include "proto/pgr_format.hh"

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

class DeltaDecoder {
 public:
  static bool IsDelta(std::string_view line) { return line.starts_with(kDeltaLinePrefix); }
  // A line Decode follows as a keyframe.
  static bool IsKeyframe(std::string_view line) { return line.starts_with(kSampleLineStart); }

  // The v1 line for `line`: the line itself unless it is a difference
  // line, which is rebuilt (absolute counters) in a buffer valid until the
  // next call. A sample keyframe becomes the new baseline; events pass
  // through untouched. Throws FormatError for a difference line without a
  // baseline or whose shape is not the baseline's (a corrupt line); the
  // baseline is lost then, as by Lose().
  std::string_view Decode(std::string_view line);
  // Decode without the throw: null and `out` set, or why it failed.
  const char* TryDecode(std::string_view line, std::string_view& out);

  // Decode's validation of a difference line without its text (summary's
  // skim): null when it holds, else why, as TryDecode. The rebuilt text
  // is written only when Rebuilt() or the next decode asks for it.
  const char* TrySum(std::string_view line);

  // The line the last difference line rebuilt; still that line after a
  // difference line failed (a failed walk leaves the text, or the values
  // it is rendered from), so a reader can hand on the last good sample
  // before the corrupt one.
  std::string_view Rebuilt();

  // The baseline the last line moved (its values: a sample line's
  // absolute integers), or null when there is none.
  const Baseline* baseline() const { return have_prev_ ? &prev_ : nullptr; }

  // Forget the baseline (after a corrupt line): the next difference line
  // throws until a keyframe comes.
  void Lose() noexcept { have_prev_ = false; }

 private:
  void FollowKeyframe(std::string_view line);

  void Render();

  Baseline prev_;
  bool have_prev_ = false;
  bool stale_ = false;  // prev_'s text lags its values (TrySum)
  LineBuffer scratch_;  // the differences of a keyframe, unused
};

}  // namespace pm
