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
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pm {

inline constexpr std::string_view kDeltaLinePrefix = "{\"d\":1,";

// A line split into the text without its integers and the integers.
struct LineShape {
  std::string text;
  std::vector<uint32_t> at;      // each integer's offset in `text`
  std::vector<uint64_t> values;  // as written, or negated mod 2^64

  // Splits `body` after `lead` (copied first). False when the line holds a
  // number that is not a plain integer (fraction, exponent, out of range)
  // or, unless `signed_ok`, a negative one: such a line is never encoded.
  bool Split(std::string_view body, std::string_view lead, bool signed_ok);
  bool SameShape(const LineShape& other) const {
    return text == other.text && at == other.at;
  }
};

class DeltaEncoder {
 public:
  static constexpr uint64_t kKeyframeEvery = 64;               // samples
  static constexpr int64_t kKeyframeMaxNs = 10'000'000'000;    // 10 s

  // The next sample line is a keyframe (first sample, after a resume).
  void ForceKeyframe() noexcept { have_prev_ = false; }

  // The line to write for sample line `line` taken at `mono_ns`: `line`
  // itself when it is a keyframe, otherwise a difference line in a buffer
  // valid until the next call. Allocates nothing in steady state.
  std::string_view Encode(std::string_view line, int64_t mono_ns);

  uint64_t keyframes() const noexcept { return keyframes_; }

 private:
  bool NeedsKeyframe(int64_t mono_ns) const;

  LineShape prev_, cur_;
  bool have_prev_ = false;
  uint64_t since_keyframe_ = 0;
  int64_t keyframe_mono_ns_ = 0;
  uint64_t keyframes_ = 0;
  std::string out_;
};

class DeltaDecoder {
 public:
  static bool IsDelta(std::string_view line) { return line.starts_with(kDeltaLinePrefix); }

  // The v1 line for `line`: the line itself unless it is a difference
  // line, which is rebuilt (absolute counters) in a buffer valid until the
  // next call. A sample keyframe becomes the new baseline; events pass
  // through untouched. Throws FormatError for a difference line without a
  // baseline or whose shape is not the baseline's (a corrupt line).
  std::string_view Decode(std::string_view line);

  // Forget the baseline (after a corrupt line): the next difference line
  // throws until a keyframe comes.
  void Lose() noexcept { have_prev_ = false; }

 private:
  LineShape prev_, cur_;
  bool have_prev_ = false;
  std::string out_;
};

}  // namespace pm
