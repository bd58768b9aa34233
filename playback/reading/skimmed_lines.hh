// The lines of a version 1 recording that `summary` has to parse: every
// line but the samples in the middle of a run of samples, which are only
// validated and counted.
//
// `summary` needs the values of the first and the last sample of every
// span between events (counters are cumulative: what happened in between
// is their difference). So of each run of sample lines, the first is
// returned, the next ones are skimmed, the most recent held back and
// returned when the run ends: at a line of another kind (returned next)
// or at the end of the input.
//
// A skimmed line is validated against the line before by
// ReaderBaseline::Skim (playback/reading/reader_baseline.hh): Follow, the walk format v2's
// encoder takes without writing the differences, or for most lines its
// answer found 16 bytes at a time. It succeeds only when the line
// is, byte for byte outside its integers, the line before — and so by
// induction the first line of the run, which was parsed in full — and
// each integer is a plain decimal integer that fits 64 bits (no sign,
// fraction, exponent or leading zero). That implies everything a full
// parse checks of such a line but one: that "t" and "mono" stay below
// 2^63, values summary never reads in a skimmed sample. Version 2 is
// skimmed the same way (playback/reading/skimmed_deltas.hh): one validation for
// both.
//
// A sample line the walk cannot vouch for is returned, so the full parse
// refuses it — with the error and line number it gives today — or accepts
// it (a row that became null), and the lines after it are walked against
// it. Memory stays flat: the held line is the baseline's copy of it.
//
// Sample lines are told by their first bytes, `{"t":` (the writer's
// BeginSampleLine); anything else (events, a line in another form, zero
// bytes) is returned as it is.
//
// Data corrupt under the lines (a damaged gzip or zstd stream) ends a run
// too: the held sample, the last readable one, is returned first, and the
// error is thrown at the next call, as a full reading would have returned
// that sample before it.
//
// A time window's cuts (playback/reading/time_cuts.hh) end a run too: a sample
// whose "t" (the digits after `{"t":`, read only when there are cuts) is
// on the other side of a cut from the sample before is returned, with the
// one before it, so the window's first and last samples are parsed.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string_view>

#include "playback/reading/line_reader.hh"
#include "playback/reading/reader_baseline.hh"
#include "playback/reading/time_cuts.hh"

namespace pm {

// The integer (optionally negative) at `at` in `line` that fits int64, or
// nullopt: a skim's quick look at a line's "t".
std::optional<int64_t> LeadingInteger(std::string_view line, size_t at);

// For both skimmers: `lines`' next line, rethrowing first an error kept
// in `failed`. An error from `lines` while a sample is `held` is kept in
// `failed` instead, and the input ends for now (nullopt), so that the held
// sample is returned before it.
std::optional<std::string_view> NextOrKeepError(LineReader& lines, bool held,
                                                std::exception_ptr& failed);

class SkimmedLines {
 public:
  explicit SkimmedLines(LineReader& lines, const TimeCuts* cuts = nullptr)
      : lines_(lines), cuts_(cuts) {}

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
  bool Vouches(std::string_view line);
  bool Cut(std::string_view line) const;
  std::string_view Hand(std::string_view line, bool sample);
  std::string_view TakeHeld();

  LineReader& lines_;
  const TimeCuts* cuts_;
  ReaderBaseline baseline_;  // the last sample line returned or skimmed
  bool have_baseline_ = false;
  bool in_run_ = false;   // the line before was a sample
  bool held_ = false;     // the baseline is a skimmed sample not returned yet
  std::exception_ptr failed_;  // the reader's error, thrown after the held sample
  uint64_t held_number_ = 0;
  uint64_t held_offset_ = 0;
  // The line that ended a run, returned after the held one: still where
  // the LineReader returned it, valid until its next Next().
  std::optional<std::string_view> deferred_;
  bool deferred_sample_ = false;
  uint64_t number_ = 0;
  uint64_t offset_ = 0;
  uint64_t skipped_ = 0;
};

}  // namespace pm
