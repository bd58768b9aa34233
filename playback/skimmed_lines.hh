// The lines of a version 1 recording that `summary` has to parse: every
// line but the samples in the middle of a run of samples, which are only
// validated (LineSkim) and counted.
//
// `summary` needs the values of the first and the last sample of every
// span between events (counters are cumulative: what happened in between
// is their difference). So of each run of sample lines, the first is
// returned, the next ones are skimmed, the most recent held back (copied)
// and returned when the run ends: at a line of another kind (returned
// next) or at the end of the input. A sample line the skim cannot vouch
// for is returned too, so the full parse refuses it — with the error and
// line number it gives today — or accepts it (a row that became null) and
// its shape is learned for the lines after it.
//
// Sample lines are told by their first bytes, `{"t":` (the writer's
// BeginSampleLine); anything else (events, a line in another form, zero
// bytes) is returned as it is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "playback/line_skim.hh"
#include "proto/line_reader.hh"

namespace pm {

class SkimmedLines {
 public:
  explicit SkimmedLines(LineReader& lines) : lines_(lines) {}

  // The next line to parse in full, without its "\n"; valid until the
  // next call. nullopt at the end of the input.
  std::optional<std::string_view> Next();
  // The line Next() returned: its number (1-based) and the offset of its
  // first byte in the input.
  uint64_t line_number() const { return number_; }
  uint64_t line_offset() const { return offset_; }
  // Sample lines validated and not returned.
  uint64_t skipped() const { return skipped_; }

 private:
  struct Kept {  // a line read ahead of the one returned
    std::string text;
    uint64_t number = 0;
    uint64_t offset = 0;
    bool present = false;
  };
  void Keep(Kept& kept, std::string_view line);
  std::string_view Return(Kept& kept);

  LineReader& lines_;
  LineSkim skim_;
  Kept held_;      // the last sample skimmed: the run's last, so far
  Kept deferred_;  // the line that ended a run, returned after held_
  bool in_run_ = false;  // a sample of the current run was returned
  uint64_t number_ = 0;
  uint64_t offset_ = 0;
  uint64_t skipped_ = 0;
};

}  // namespace pm
