// The lines of a version 2 recording that `summary` has to parse: as
// SkimmedLines (playback/reading/skimmed_lines.hh) for v1, every line but the
// samples in the middle of a run, which are only validated and counted.
//
// A difference line in the middle of a run is validated as rebuilding it
// would (DeltaDecoder::TrySum, the walk of ReaderBaseline::AddDifferences that
// sums the values without writing the text): that succeeds only when it
// has, byte for byte outside its integers, the shape of the line before,
// and so by induction the shape of the keyframe the run's baseline came
// from, which was parsed in full; its integers must be plain decimal
// integers. The rebuilt text only ever holds unsigned integers written
// back in the keyframe's shape, so the full parse would accept it too.
// (One thing the full parse checks and this does not: that "t" and
// "mono" stay below 2^63 — summary never reads a skimmed sample's values.)
//
// Returned, each to parse in full: every keyframe, event and other line
// as read (Line::kRead, to decode as the full reading does), the first
// sample of each run, and the run's last sample as its rebuilt text
// (kRebuilt, already v1) when the run ends — at a line of another kind
// (returned next), a keyframe, a corrupt difference line or the end. A
// difference line that fails to rebuild is returned as kRefused with the
// reason DeltaDecoder::Decode would have thrown, after the last good
// sample, so the reader loses the span to the next keyframe with the
// warning and line numbers of the full reading. Memory stays flat: the
// run's last sample is the decoder's baseline, its text written only when
// it is returned.
//
// Corrupt data under the lines ends a run as in SkimmedLines: the held
// sample first, the error at the next call (NextOrKeepError).
//
// A time window's cuts end a run as in SkimmedLines: a difference line
// whose "t" (the baseline's plus the difference after `{"d":1,"t":`, read
// only when there are cuts) lies across a cut from the sample before is
// returned to decode in full, after the held sample.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string_view>

#include "playback/reading/delta_decoder.hh"
#include "playback/reading/line_reader.hh"
#include "playback/reading/time_cuts.hh"

namespace pm {

class SkimmedDeltas {
 public:
  SkimmedDeltas(LineReader& lines, DeltaDecoder& delta, const TimeCuts* cuts = nullptr)
      : lines_(lines), delta_(delta), cuts_(cuts) {}

  struct Line {
    enum Kind { kRead, kRebuilt, kRefused };
    std::string_view text;  // valid until the next call
    Kind kind = kRead;
    const char* why = nullptr;  // kRefused: what Decode would throw
  };

  // The next line to handle in full; nullopt at the end of the input.
  std::optional<Line> Next();
  // The line Next() returned: its number (1-based) and the offset of its
  // first byte in the input (for kRebuilt, those of the line it rebuilt).
  uint64_t line_number() const { return number_; }
  uint64_t line_offset() const { return offset_; }
  // Sample lines validated and not returned.
  uint64_t skipped() const { return skipped_; }

 private:
  Line Hand(Line line);
  bool Cut(std::string_view line) const;
  Line TakeHeld();

  LineReader& lines_;
  DeltaDecoder& delta_;
  const TimeCuts* cuts_;
  bool in_run_ = false;  // the line before was a sample, with a baseline
  bool held_ = false;    // the baseline is a sample not returned yet
  std::exception_ptr failed_;  // the reader's error, thrown after the held sample
  uint64_t held_number_ = 0;
  uint64_t held_offset_ = 0;
  std::optional<Line> deferred_;  // the line that ended a run
  uint64_t number_ = 0;
  uint64_t offset_ = 0;
  uint64_t skipped_ = 0;
};

}  // namespace pm
