// Format v2's sample lines read back (proto/pgr_delta.hh says what they
// are): each difference line rebuilt, by the walk the writer's reversed,
// into the v1 line the recorder sampled.
#pragma once

#include <string_view>

#include "playback/reading/reader_baseline.hh"
#include "proto/pgr_delta.hh"
#include "proto/pgr_format.hh"

namespace pm {

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
  const ReaderBaseline* baseline() const { return have_prev_ ? &prev_ : nullptr; }

  // Forget the baseline (after a corrupt line): the next difference line
  // throws until a keyframe comes.
  void Lose() noexcept { have_prev_ = false; }

 private:
  void FollowKeyframe(std::string_view line);

  void Render();

  ReaderBaseline prev_;
  bool have_prev_ = false;
  bool stale_ = false;  // prev_'s text lags its values (TrySum)
  LineBuffer scratch_;  // the differences of a keyframe, unused
};

}  // namespace pm
