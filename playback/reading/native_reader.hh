// Reads a native .pgr recording (format: proto/pgr_format.hh, man/pgr.5)
// from its decompressed bytes, one line at a time.
//
// The header's "collectors" say which arrays a sample has and what their
// columns are; columns are matched to the descriptor's fields by name
// (proto/pgr_collectors.hh), so a writer may reorder or add columns
// (unknown ones are ignored, missing ones read as 0). A sample row must
// have exactly the header's number of columns, and an array of rows the
// header's number of rows. Every member is read alike, as its descriptor's
// PgrRows says.
// Unknown sample keys and unknown collectors are ignored (forward
// compatible); a known sample key the header did not declare is garbage.
//
// Event lines of kinds this reader does not know are skipped, as pgr(5)
// says readers do; pause, resume, mark and end are returned.
//
// Version 2 (difference lines, proto/pgr_delta.hh) is rebuilt into v1
// lines before parsing.
//
// Damage never ends the read: a line that does not parse (garbage, zero
// bytes, a line cut and spliced) is skipped, and reading resumes at the
// next line that parses (v1, whose lines stand alone) or at the next
// keyframe or event (v2, whose difference lines need the baseline the
// damage lost). Each damaged span is one warning naming its lines, the
// error at its first, the time between the items read around it and
// where reading resumed; the header alone is never recovered (garbage
// there still throws).
//
// summary's reading (SkimSamples()) parses only the lines it needs and
// skims the others: see playback/reading/skimmed_lines.hh (v1) and
// playback/reading/skimmed_deltas.hh (v2).
//
// A sample line of the shape of the sample line before is not parsed:
// the walk of playback/reading/reader_baseline.hh that validates it against that line
// (and v2's decoding) yields its integers, which go where the parse of
// the first line of that shape put them (playback/reading/sample_shape.hh).
//
// Steady state allocates nothing: the line buffer, the JSON scratch string
// and the caller's RawSample vectors are reused from sample to sample.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playback/reading/delta_decoder.hh"
#include "playback/reading/json_reader.hh"
#include "playback/reading/line_reader.hh"
#include "playback/reading/raw_sample.hh"
#include "playback/reading/recording_reader.hh"
#include "playback/reading/sample_shape.hh"
#include "playback/reading/skimmed_deltas.hh"
#include "playback/reading/skimmed_lines.hh"

namespace pm {


// One member as the header declares it (proto/pgr_collectors.hh says how).
struct PgrColumns {
  bool declared = false;
  std::vector<int> to;  // per column: the descriptor field it holds, -1 unknown
  size_t width = 0;     // values per row in a RawSample
  std::vector<std::string> rows;  // row names (one unnamed row for PgrRows::kOne)
  std::vector<std::pair<std::string, std::vector<std::string>>> labels;  // per row
};

// What the header's "collectors" object declares: per member, in
// kCollectors order.
struct PgrLayout {
  PgrLayout();
  std::vector<PgrColumns> members;
};

// Parses header line `line` into `info` and `layout`. Throws JsonError
// (offset in the line) for garbage, a foreign format or another version
// ("unsupported pgr version N").
void ParsePgrHeader(JsonReader& r, std::string_view line, RecordingInfo& info,
                    PgrLayout& layout);

// A "clock" object (the header's, a mark's, the trailer's) into `out`:
// its known members typed as pgr(5) says, others skipped.
void ReadClockState(JsonReader& r, ClockState& out);

class NativeReader final : public RecordingReader::Source {
 public:
  // `in` must outlive the reader. Reads the header line now; a stream that
  // ends inside it reads as truncated, with an empty info(). Throws
  // FormatError "pgr line L, byte B: WHAT", B an offset in `in`.
  explicit NativeReader(InputStream& in);

  const RecordingInfo& info() const override { return info_; }
  // After an event, `sample`'s contents are unspecified.
  RecordingReader::Item Next(RawSample& sample, RecordingEvent& event) override;
  // The input ended with a partial line.
  bool truncated() const override { return lines_.partial_tail(); }
  std::span<const std::string> warnings() const override { return warnings_; }
  std::string_view LineText() override;
  std::string_view HeaderText() const override { return header_; }
  void KeepUnknownEvents() override { keep_unknown_ = true; }
  // See SkimmedLines (v1) and SkimmedDeltas (v2).
  void SkimSamples(const TimeCuts* cuts) override;
  uint64_t samples_skipped() const override {
    return skimmed_ ? skimmed_->skipped() : skimmed_deltas_ ? skimmed_deltas_->skipped() : 0;
  }

 private:
  enum class LineKind { kSample, kEvent, kSkip };
  template <class Parse> auto Guarded(Parse parse);
  std::optional<std::string_view> NextLine();
  LineKind ReadLine(std::string_view line, RecordingEvent& e);
  void LearnShape(std::string_view line);
  void Returned(bool sample, int64_t t_ns);
  void StartLoss(const FormatError& error);
  void EndLoss(std::optional<int64_t> resumed_ns, bool sample);
  std::string Elapsed(int64_t t_ns) const;
  LineKind ParseLine(std::string_view line, RawSample& s, RecordingEvent& e);
  bool ReadSampleMember(std::string_view key, RawSample& s);
  bool ReadRow(const PgrColumns& cols, std::span<uint64_t> out);
  template <class RowFn> bool ReadTable(size_t rows, RowFn row);

  LineReader lines_;
  std::string header_;  // the header line, for cat
  // The v1 text of the line read last: a view of the line or the
  // decoder's text; stale while a difference line was only summed.
  std::string_view text_;
  bool text_stale_ = false;
  bool keep_unknown_ = false;  // unknown events returned (cat)
  std::unique_ptr<SkimmedLines> skimmed_;  // summary's reading, or null
  std::unique_ptr<SkimmedDeltas> skimmed_deltas_;  // the same for v2
  // What SkimmedDeltas said of the line NextLine() returned.
  SkimmedDeltas::Line::Kind skim_kind_ = SkimmedDeltas::Line::kRead;
  const char* refused_why_ = nullptr;
  uint64_t line_number_ = 0;  // of the line being parsed
  uint64_t line_offset_ = 0;
  JsonReader json_;
  RecordingInfo info_;
  PgrLayout layout_;
  DeltaDecoder delta_;
  // The sample read last (the caller gets a copy), and where the integers
  // of its line go in it; v1 follows its line with follow_.
  RawSample state_;
  SampleShape shape_;
  ReaderBaseline follow_;
  // A span lost to damaged lines: from `lost_from_` to the next line read
  // (v1) or keyframe (v2); the times of the items read around it.
  uint64_t lost_from_ = 0;  // 0: nothing lost
  std::string lost_why_;
  std::optional<int64_t> first_ns_, last_ns_;
  std::vector<std::string> warnings_;
};

}  // namespace pm
