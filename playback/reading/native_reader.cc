#include "playback/reading/native_reader.hh"

#include "playback/reading/proc_table_event.hh"
#include "playback/reading/scan_event.hh"

#include "proto/pgr_collector_spec.hh"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace pm {
namespace {

bool IsKnownEvent(std::string_view kind) {
  return kind == "pause" || kind == "resume" || kind == "mark" || kind == "end" ||
         kind == "scan" || kind == "procs";
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

// What the previous line left in the sample and the event.
void ResetLine(RawSample& s, RecordingEvent& e) {
  for (MemberRows& m : s.members) m.has = false;
  s.mono_ns = 0;
  e.kind.clear();
  e.label.clear();
  e.reason.clear();
  e.clock.reset();
  e.scan.reset();
  e.procs.reset();
}

// The event parts of a scan or procs line, made when a key asks for one.
struct EventParts {
  std::shared_ptr<ScanEvent> scan;
  std::shared_ptr<ProcTableEvent> procs;
  ScanEvent& Scan();
  ProcTableEvent& Procs();
};

ScanEvent& EventParts::Scan() {
  if (!scan) scan = std::make_shared<ScanEvent>();
  return *scan;
}

ProcTableEvent& EventParts::Procs() {
  if (!procs) procs = std::make_shared<ProcTableEvent>();
  return *procs;
}

// An event's member `key` (false: not one), into `e` or its parts.
bool ReadEventMember(JsonReader& json, std::string_view key, RecordingEvent& e,
                     EventParts& parts) {
  using Type = JsonReader::Type;
  if ((key == "label" || key == "reason") && json.Peek() == Type::kString)
    (key == "label" ? e.label : e.reason) = json.ReadString();
  else if (key == "clock") ReadClockState(json, e.clock.emplace());
  else if (key == "processes") ReadScanProcesses(json, parts.Scan().processes);
  else if (key == "added") ReadScanNamed(json, parts.Scan().added);
  else if (key == "sut") ReadScanPids(json, parts.Scan().sut);
  else if (key == "at" && json.Peek() == Type::kString) parts.Scan().at = json.ReadString();
  else if (key == "lag_ns" && json.Peek() != Type::kString) parts.Scan().lag_ns = json.ReadInt64();
  else if (key == "rows") ReadProcTableRows(json, parts.Procs().rows);
  else if (key == "exited") ReadScanPids(json, parts.Procs().exited);
  else if (key == "brief") ReadProcTableBrief(json, parts.Procs());
  else if (key == "since") parts.Procs().since_mono_ns = json.ReadInt64();
  else return false;
  return true;
}

// An event line's time and the parts its kind carries.
void FinishEvent(std::optional<int64_t> t, int64_t mono_ns, RecordingEvent& e,
                 EventParts& parts) {
  e.time_ns = t.value_or(0);
  e.mono_ns = mono_ns;
  if (e.kind == "scan") e.scan = std::move(parts.scan);
  if (e.kind == "procs") e.procs = std::move(parts.procs);
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
  header_ = *line;
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
  if (info_.origin) first_ns_ = info_.origin->time_ns;  // a cut: the whole's elapsed times
}

RecordingReader::Item NativeReader::Next(RawSample& sample, RecordingEvent& event) {
  if (info_.version == 0) return RecordingReader::Item::kEnd;  // no header
  while (std::optional<std::string_view> line = NextLine()) {
    if (lost_from_ != 0 && DeltaDecoder::IsDelta(*line)) continue;  // no baseline yet
    LineKind kind = LineKind::kSkip;
    try {
      if (line->starts_with('\0'))  // what a file zero-filled by another process holds
        Guarded([] { throw JsonError("zero bytes instead of a line", 0); });
      if (skim_kind_ == SkimmedDeltas::Line::kRefused) throw FormatError(refused_why_);
      kind = ReadLine(*line, event);
    } catch (const FormatError& e) {
      StartLoss(e);
      continue;
    }
    if (kind == LineKind::kSkip) continue;
    Returned(kind == LineKind::kSample, kind == LineKind::kSample ? state_.time_ns : event.time_ns);
    if (kind == LineKind::kEvent) return RecordingReader::Item::kEvent;
    sample = state_;
    return RecordingReader::Item::kSample;
  }
  if (lost_from_ != 0) EndLoss(std::nullopt, false);
  return RecordingReader::Item::kEnd;
}

// An item at `t_ns` is returned: a span lost before it ends there.
void NativeReader::Returned(bool sample, int64_t t_ns) {
  if (!first_ns_) first_ns_ = t_ns;
  if (lost_from_ != 0) EndLoss(t_ns, sample);
  last_ns_ = t_ns;
}

void NativeReader::SkimSamples(const TimeCuts* cuts) {
  if (skimmed_ || skimmed_deltas_) return;
  if (info_.version == kPgrVersion) skimmed_ = std::make_unique<SkimmedLines>(lines_, cuts);
  if (info_.version == kPgrDeltaVersion)
    skimmed_deltas_ = std::make_unique<SkimmedDeltas>(lines_, delta_, cuts);
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
    text_ = line;
    text_stale_ = false;
    if (info_.version != kPgrDeltaVersion) {
      if (shape_.learned() && follow_.Follow(line) && shape_.Fill(follow_))
        return LineKind::kSample;
    } else if (skim_kind_ == SkimmedDeltas::Line::kRebuilt) {  // decoded by the skim
      if (shape_.learned() && delta_.baseline() && shape_.Fill(*delta_.baseline()))
        return LineKind::kSample;
    } else if (shape_.learned() && DeltaDecoder::IsDelta(line)) {
      if (const char* why = delta_.TrySum(line)) throw FormatError(why);
      text_stale_ = true;  // the text is written only if line_text() asks
      if (shape_.Fill(*delta_.baseline())) return LineKind::kSample;
      text_ = line = delta_.Rebuilt();
      text_stale_ = false;
    } else {
      text_ = line = delta_.Decode(line);
      if (shape_.learned() && DeltaDecoder::IsKeyframe(line) && delta_.baseline() &&
          shape_.Fill(*delta_.baseline()))
        return LineKind::kSample;
    }
    LineKind kind = ParseLine(line, state_, e);
    if (kind == LineKind::kSample) LearnShape(line);
    return kind;
  });
}

std::string_view NativeReader::LineText() {
  if (text_stale_) {
    text_ = delta_.Rebuilt();
    text_stale_ = false;
  }
  return text_;
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

// A damaged line: v1 lines stand alone, so reading resumes at the next
// line that parses; v2's difference lines need the baseline the damage
// lost, so there it resumes at the next keyframe (or event).
void NativeReader::StartLoss(const FormatError& error) {
  delta_.Lose();
  if (lost_from_ != 0) return;  // the span goes on
  lost_from_ = line_number_ != 0 ? line_number_ : lines_.line_number();
  lost_why_ = error.what();
  if (!lost_why_.starts_with("pgr line "))  // v2's decoding names no place
    lost_why_ = "pgr line " + std::to_string(lost_from_) + ", byte " +
                std::to_string(line_offset_) + ": " + lost_why_;
}

// Seconds since the first item read (a cut's origin), as play's elapsed_time.
std::string NativeReader::Elapsed(int64_t t_ns) const {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s",
                static_cast<double>(t_ns - first_ns_.value_or(t_ns)) / 1e9);
  return buf;
}

// One warning for the span: its lines, what broke it, the time it covers
// (between the items around it) and where reading resumed. `resumed_ns`:
// the time of the item that ends it (a sample: in v2, a keyframe);
// nullopt: the input ended inside it.
void NativeReader::EndLoss(std::optional<int64_t> resumed_ns, bool sample) {
  uint64_t resumed_at = line_number_;
  uint64_t last = resumed_ns ? resumed_at - 1 : lines_.line_number();
  std::string span = lost_from_ == last ? "line " + std::to_string(last)
                                        : "lines " + std::to_string(lost_from_) + "-" +
                                              std::to_string(last);
  std::string when;
  if (last_ns_ && resumed_ns) when = "between " + Elapsed(*last_ns_) + " and " + Elapsed(*resumed_ns);
  else if (last_ns_) when = "after " + Elapsed(*last_ns_);
  else if (resumed_ns) when = "before the first item read";
  else when = "no item read";
  std::string resumed = "resumed at line " + std::to_string(resumed_at);
  if (info_.version == kPgrDeltaVersion && sample)
    resumed = "resumed at the keyframe on line " + std::to_string(resumed_at);
  if (!resumed_ns) resumed = info_.version == kPgrDeltaVersion ? "no keyframe after them"
                                                               : "nothing readable after them";
  warnings_.push_back(span + " lost (" + lost_why_ + "), " + when + "; " + resumed);
  lost_from_ = 0;
}

// One pass whatever the key order: sample members go into `s`, event
// members into `e`; the "event" key decides which the line was.
NativeReader::LineKind NativeReader::ParseLine(std::string_view line, RawSample& s,
                                               RecordingEvent& e) {
  shape_.Begin();
  json_.Reset(line);
  ResetLine(s, e);
  EventParts parts;
  bool is_event = false;
  std::optional<int64_t> t;
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
    } else if (!ReadEventMember(json_, key, e, parts) && !ReadSampleMember(key, s)) {
      json_.SkipValue();  // a member this reader does not know
    }
  }
  json_.ExpectEnd();
  if (is_event) {
    FinishEvent(t, s.mono_ns, e, parts);
    return keep_unknown_ || IsKnownEvent(e.kind) ? LineKind::kEvent : LineKind::kSkip;
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
