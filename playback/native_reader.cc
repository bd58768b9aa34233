#include "playback/native_reader.hh"

#include "proto/pgr_collector_spec.hh"

#include <algorithm>
#include <optional>

namespace pm {
namespace {

bool IsKnownEvent(std::string_view kind) {
  return kind == "pause" || kind == "resume" || kind == "mark" || kind == "end";
}

// A member the line did not carry has no live row.
void ClearAbsent(RawSample& s) {
  for (MemberRows& m : s.members)
    if (!m.has) std::fill(m.present.begin(), m.present.end(), 0);
}

// The sample's members as the header declares them, once: a sample line
// changes only their values and which rows are null.
void Shape(const PgrLayout& layout, RawSample& s) {
  for (size_t i = 0; i < layout.members.size(); ++i) {
    const PgrColumns& cols = layout.members[i];
    MemberRows& m = s.members[i];
    m.Resize(cols.rows.size(), cols.width);
    m.names = cols.rows;
    m.has = false;
  }
}

}  // namespace

// Runs `parse` on the current line; a JsonError becomes a FormatError that
// names the line and the byte in the whole stream.
template <class Parse>
auto NativeReader::Guarded(Parse parse) {
  try {
    return parse();
  } catch (const JsonError& e) {
    throw FormatError("pgr line " + std::to_string(line_number_) + ", byte " +
                      std::to_string(line_offset_ + e.offset()) + ": " +
                      e.reason());
  }
}

NativeReader::NativeReader(InputStream& in) : lines_(in) {
  std::optional<std::string_view> line = NextLine();
  if (!line) return;  // cut inside the header
  Guarded([&] { ParsePgrHeader(json_, *line, info_, layout_); });
  for (size_t m = 0; m < MemberCount(); ++m) {
    const PgrColumns& cols = layout_.members[m];
    info_.row_labels[m] = cols.labels;
    if (!cols.declared || MemberAt(m).rows == PgrRows::kPerCpu) continue;
    std::vector<bool>& recorded = info_.recorded[m];
    recorded.assign(cols.width, false);
    for (int to : cols.to)
      if (to >= 0) recorded[static_cast<size_t>(to)] = true;
  }
  Shape(layout_, state_);
}

RecordingReader::Item NativeReader::Next(RawSample& sample, RecordingEvent& event) {
  if (info_.version == 0) return RecordingReader::Item::kEnd;  // no header
  while (std::optional<std::string_view> line = NextLine()) {
    if (line->starts_with('\0'))  // what a file zero-filled by another process holds
      Guarded([] { throw JsonError("zero bytes instead of a line", 0); });
    if (lost_from_ != 0 && DeltaDecoder::IsDelta(*line)) continue;
    LineKind kind = LineKind::kSkip;
    try {
      if (skim_kind_ == SkimmedDeltas::Line::kRefused) throw FormatError(refused_why_);
      kind = ReadLine(*line, event);
    } catch (const FormatError& e) {
      if (info_.version != kPgrDeltaVersion) throw;
      StartLoss(e);
      continue;
    }
    switch (kind) {
      case LineKind::kSample:
        if (lost_from_ != 0) EndLoss(false);
        sample = state_;
        return RecordingReader::Item::kSample;
      case LineKind::kEvent: return RecordingReader::Item::kEvent;
      case LineKind::kSkip: break;
    }
  }
  if (lost_from_ != 0) EndLoss(true);
  return RecordingReader::Item::kEnd;
}

void NativeReader::SkimSamples() {
  if (skimmed_ || skimmed_deltas_) return;
  if (info_.version == kPgrVersion) skimmed_ = std::make_unique<SkimmedLines>(lines_);
  if (info_.version == kPgrDeltaVersion)
    skimmed_deltas_ = std::make_unique<SkimmedDeltas>(lines_, delta_);
}

std::optional<std::string_view> NativeReader::NextLine() {
  if (skimmed_deltas_) {
    std::optional<SkimmedDeltas::Line> line = skimmed_deltas_->Next();
    line_number_ = skimmed_deltas_->line_number();
    line_offset_ = skimmed_deltas_->line_offset();
    skim_kind_ = line ? line->kind : SkimmedDeltas::Line::kRead;
    refused_why_ = line ? line->why : nullptr;
    if (!line) return std::nullopt;
    return line->text;
  }
  std::optional<std::string_view> line = skimmed_ ? skimmed_->Next() : lines_.Next();
  line_number_ = skimmed_ ? skimmed_->line_number() : lines_.line_number();
  line_offset_ = skimmed_ ? skimmed_->line_offset() : lines_.line_offset();
  return line;
}

// Into state_: a sample line of the shape learned last is read from the
// values of the walk that validated it (SampleShape); any other line is
// parsed, and a sample's shape learned from it.
NativeReader::LineKind NativeReader::ReadLine(std::string_view line, RecordingEvent& e) {
  return Guarded([&] {
    if (info_.version != kPgrDeltaVersion) {
      if (shape_.learned() && follow_.Follow(line) && shape_.Fill(follow_))
        return LineKind::kSample;
    } else if (skim_kind_ == SkimmedDeltas::Line::kRebuilt) {  // decoded by the skim
      if (shape_.learned() && delta_.baseline() && shape_.Fill(*delta_.baseline()))
        return LineKind::kSample;
    } else if (shape_.learned() && DeltaDecoder::IsDelta(line)) {
      if (const char* why = delta_.TrySum(line)) throw FormatError(why);
      if (shape_.Fill(*delta_.baseline())) return LineKind::kSample;
      line = delta_.Rebuilt();
    } else {
      line = delta_.Decode(line);
      if (shape_.learned() && DeltaDecoder::IsKeyframe(line) && delta_.baseline() &&
          shape_.Fill(*delta_.baseline()))
        return LineKind::kSample;
    }
    LineKind kind = ParseLine(line, state_, e);
    if (kind == LineKind::kSample) LearnShape(line);
    return kind;
  });
}

// After ParseLine read sample line `line`: the baseline whose walk will
// validate the next lines is split from it (v1), or is the decoder's,
// which holds it (v2).
void NativeReader::LearnShape(std::string_view line) {
  if (info_.version != kPgrDeltaVersion) {
    if (follow_.Split(line)) shape_.End(follow_);
  } else if (const Baseline* b = delta_.baseline(); b && b->Text() == line) {
    shape_.End(*b);
  }
}

void NativeReader::StartLoss(const FormatError& error) {
  delta_.Lose();
  if (lost_from_ != 0) return;  // the span goes on
  lost_from_ = lines_.line_number();
  lost_why_ = error.what();
}

// `at_end`: the input ended inside the span, else the current line is the
// keyframe that ends it.
void NativeReader::EndLoss(bool at_end) {
  uint64_t last = lines_.line_number() - (at_end ? 0 : 1);
  std::string span = "lines " + std::to_string(lost_from_) + "-" + std::to_string(last);
  warnings_.push_back(span + " lost (" + lost_why_ + "); " +
                      (at_end ? std::string("no keyframe after them")
                              : "resumed at the keyframe on line " +
                                    std::to_string(last + 1)));
  lost_from_ = 0;
}

// One pass whatever the key order: sample members go into `s`, event
// members into `e`; the "event" key decides which the line was.
NativeReader::LineKind NativeReader::ParseLine(std::string_view line, RawSample& s,
                                               RecordingEvent& e) {
  shape_.Begin();
  json_.Reset(line);
  for (MemberRows& m : s.members) m.has = false;
  e.kind.clear();
  e.label.clear();
  e.reason.clear();
  e.clock.reset();
  bool is_event = false;
  std::optional<int64_t> t;
  s.mono_ns = 0;
  json_.BeginObject();
  for (std::string_view key; json_.NextKey(key);) {
    if (key == "t") {
      t = json_.ReadInt64();
      shape_.Time(&s.time_ns);
    } else if (key == "mono") {
      s.mono_ns = json_.ReadInt64();
      shape_.Time(&s.mono_ns);
    } else if (key == "event") {
      e.kind = json_.ReadString();
      is_event = true;
    } else if ((key == "label" || key == "reason") &&
               json_.Peek() == JsonReader::Type::kString) {
      (key == "label" ? e.label : e.reason) = json_.ReadString();
    } else if (key == "clock") {
      ReadClockState(json_, e.clock.emplace());
    } else if (!ReadSampleMember(key, s)) {
      json_.SkipValue();  // a member this reader does not know
    }
  }
  json_.ExpectEnd();
  if (is_event) {
    e.time_ns = t.value_or(0);
    return IsKnownEvent(e.kind) ? LineKind::kEvent : LineKind::kSkip;
  }
  if (!t) throw JsonError("a sample without \"t\"", 0);
  s.time_ns = *t;
  ClearAbsent(s);
  return LineKind::kSample;
}

bool NativeReader::ReadSampleMember(std::string_view key, RawSample& s) {
  size_t i = MemberIndexOf(key);
  if (i == MemberCount()) return false;
  const PgrColumns& cols = layout_.members[i];
  if (!cols.declared) json_.Fail("\"" + std::string(key) + "\" is not in the header");
  MemberRows& m = s.members[i];
  if (MemberAt(i).rows == PgrRows::kOne) {
    m.has = ReadRow(cols, m.row(0));
    m.present[0] = m.has;
    return true;
  }
  m.has = ReadTable(m.rows(), [&](size_t row) { m.present[row] = ReadRow(cols, m.row(row)); });
  return true;
}

// A row of counters, or null (absent: false, zeros).
bool NativeReader::ReadRow(const PgrColumns& cols, std::span<uint64_t> out) {
  std::fill(out.begin(), out.end(), 0);
  if (json_.TryNull()) return false;
  json_.BeginArray();
  const size_t columns = cols.to.size();
  size_t i = 0;
  for (; json_.NextElement(); ++i) {
    if (i == columns) json_.Fail("more values than the header's columns");
    uint64_t v = json_.ReadUint64();
    uint64_t* slot = nullptr;
    if (int to = cols.to[i]; to >= 0) *(slot = &out[static_cast<size_t>(to)]) = v;
    shape_.Integer(slot);
  }
  if (i != columns) json_.Fail("fewer values than the header's columns");
  return true;
}

// An array of exactly `rows` rows, each read by row(i); null: false.
template <class RowFn>
bool NativeReader::ReadTable(size_t rows, RowFn row) {
  if (json_.TryNull()) return false;
  json_.BeginArray();
  size_t i = 0;
  for (; json_.NextElement(); ++i) {
    if (i == rows) json_.Fail("more rows than the header declares");
    row(i);
  }
  if (i != rows) json_.Fail("fewer rows than the header declares");
  return true;
}

}  // namespace pm
