// The recording reader (playback/reading/recording_reader.hh) on arbitrary bytes,
// through the item stream every reader consumes (playback/reading/sample_stream.hh,
// zero-width samples left out) and what `play`, `summary` and `summary
// --phases` do with its items (tools/readers/play_cli.cc, tools/readers/summary_cli.cc),
// the clock's states and summary's warnings of them included: native or
// gob, plain, gzip or zstd, as detected from the bytes. Garbage may only
// throw FormatError.
//
// summary's skimmed reading must print what the full reading prints
// wherever the full reading accepts the input.
//
// Damage is recovered: a native recording read cleanly (no error, no
// damage) with a garbage line put before one of its lines (v1: any line
// after the header; v2: a keyframe, where reading resumes) prints what it
// printed, and says it was damaged (the tools' exit 2).
//
// An input that is neither compressed nor starts with a zero is also read
// gzip- and zstd-compressed (flushed after each line, as the recorder
// writes): a codec must never change what the tools print, the error and
// truncation included.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hh"
#include "playback/reports/clock_report.hh"
#include "playback/outputs/phases.hh"
#include "playback/outputs/play_json.hh"
#include "playback/outputs/export_csv.hh"
#include "playback/reading/recording_reader.hh"
#include "playback/reading/sample_stream.hh"
#include "playback/outputs/summary.hh"
#include "proto/codec.hh"
#include "proto/pgr_format.hh"
#include "proto/stream.hh"
#include "test/fuzz/fuzz_check.hh"

namespace {

using pm::RawSample;
using pm::RecordingEvent;

// play's walk: a rate line (JSON and CSV) per pair of samples within a
// segment; pause and resume end a segment.
class Play {
 public:
  void OnSample(const RawSample& s) {
    if (!have_origin_) origin_ = pm::TimeOrigin::Of(s);
    have_origin_ = true;
    if (have_prev_ && pm::IntervalNs(prev_, s) > 0) {
      const pm::ReportOptions options;
      const pm::Pair pair(prev_, s, origin_, options);
      pm::AppendPlayJson(out, pair);
      out.push_back('\n');
      csv_.AppendRow(out, pair);
    }
    prev_ = s;
    have_prev_ = true;
  }
  void OnEvent(const RecordingEvent& e) {
    if (e.kind == "pause" || e.kind == "resume") have_prev_ = false;
    if (!have_origin_) origin_ = pm::TimeOrigin::Of(e);
    have_origin_ = true;
    out += e.kind + " " + e.label + " " + std::to_string(e.time_ns);
    if (e.clock) out += " " + pm::DescribeClock(*e.clock);
    out.push_back('\n');
  }
  std::string out;

 private:
  RawSample prev_;
  bool have_prev_ = false, have_origin_ = false;
  pm::TimeOrigin origin_;
  pm::CsvExport csv_;
};

// summary (text and JSON, --all) of one span, as summary_cli.cc builds it.
std::string Summaries(const pm::RecordingInfo& info, const pm::ActiveSpan& span,
                      const pm::SummaryPauses& pauses, const pm::ClockHistory* clocks) {
  RawSample end = span.empty() ? RawSample() : span.ActiveEnd();
  pm::SummaryInput in;
  in.title_file = "fuzz.pgr";
  in.recorded = info.recorded;
  in.first = &span.first();
  in.last = &end;
  in.all = true;
  if (clocks) in.meta = info.meta;
  in.clock = clocks;
  return pm::SummaryText(in, pauses) + pm::SummaryJson(in, pauses);
}

pm::SummaryPauses PausesOf(const pm::ActiveSpan& span) {
  pm::SummaryPauses p;
  p.has_pauses = span.has_pauses();
  p.paused_ns = span.paused_ns();
  return p;
}

// The whole recording's with its meta and clock (and summary's clock
// warnings), then each phase's.
std::string Reports(const pm::RecordingInfo& info, const pm::PhaseWalk& walk,
                    const pm::ClockHistory& clocks) {
  std::string out;
  for (const std::string& warning : clocks.Warnings()) out += "warning: " + warning + "\n";
  if (walk.whole().empty()) return out + "no samples\n";
  out += Summaries(info, walk.whole(), PausesOf(walk.whole()), &clocks);
  for (const pm::Phase& phase : walk.phases()) {
    pm::SummaryPauses p = PausesOf(phase.span);
    p.phase = phase.label;
    out += Summaries(info, phase.span, p, nullptr);
  }
  return out;
}

struct Reading {
  std::string out;  // everything the tools would print
  bool clean = false;  // no error, no damage
  int version = 0;  // the native header's; 0: legacy, or none read
};

Reading Read(std::string_view bytes) {
  pm::MemoryInputStream in(bytes);
  Play play;
  pm::PhaseWalk walk(true);
  Reading r;
  try {
    pm::RecordingReader reader(in);
    pm::ClockHistory clocks(reader.info());
    pm::SampleStream stream(reader, {});
    RawSample sample;
    RecordingEvent event;
    for (;;) {
      pm::SampleStream::Item item = stream.Next(sample, event);
      if (item == pm::SampleStream::Item::kEnd) break;
      if (item == pm::SampleStream::Item::kSample) {
        play.OnSample(sample);
        walk.OnSample(sample);
      } else {
        play.OnEvent(event);
        walk.OnEvent(event);
        clocks.OnEvent(event);
      }
    }
    r.out = play.out + Reports(reader.info(), walk, clocks) +
            (reader.truncated() ? "truncated\n" : "") + (reader.damaged() ? "damaged\n" : "");
    r.clean = !reader.damaged();
    r.version = reader.info().version;
  } catch (const pm::FormatError& e) {
    r.out = play.out + "error: " + e.what() + "\n";
  }
  return r;
}

std::string Transcript(std::string_view bytes) { return Read(bytes).out; }

// Where a garbage line leaves nothing unread (the file comment): the
// offsets of such lines' first bytes. A v2 keyframe must be a sample: a
// line that may be an event (its text says "event", or escapes a key) is
// not taken, as reading resumes at an event without the baseline the
// difference lines after it need.
std::vector<size_t> Resumable(std::string_view plain, int version) {
  std::vector<size_t> at;
  for (size_t start = plain.find('\n'); start != std::string_view::npos && start + 1 < plain.size();
       start = plain.find('\n', start + 1)) {
    std::string_view line = plain.substr(start + 1);
    line = line.substr(0, line.find('\n'));
    if (version == 1 ||
        (line.starts_with(pm::kSampleLineStart) && line.find("event") == std::string_view::npos &&
         line.find('\\') == std::string_view::npos))
      at.push_back(start + 1);
  }
  return at;
}

// The clean recording `plain` with a garbage line before one of its
// resumable lines (picked by its bytes) reads as it did, and damaged.
void CheckRecovery(std::string_view plain, const Reading& clean) {
  std::vector<size_t> at = Resumable(plain, clean.version);
  if (at.empty()) return;
  size_t where = at[std::hash<std::string_view>()(plain) % at.size()];
  std::string damaged = std::string(plain.substr(0, where)) + "\x01garbage\n" +
                        std::string(plain.substr(where));
  Reading r = Read(damaged);
  pm::fuzz::Require(r.out == clean.out + "damaged\n",
                    "a damaged line loses nothing else, and is said");
}

// What summary prints, read as summary reads (SkimSamples: only each
// run's first and last sample parsed, the rest validated by the walk
// against the line before), or nullopt when the full read would refuse
// it: there the skim may refuse more or less (pgr's `t`/`mono` above
// 2^63-1 in a skimmed sample are left to play, summary(1) says).
std::optional<std::string> SummaryReports(std::string_view bytes, bool skim) {
  pm::MemoryInputStream in(bytes);
  pm::PhaseWalk walk(true);
  try {
    pm::RecordingReader reader(in);
    if (skim) reader.SkimSamples();
    pm::ClockHistory clocks(reader.info());
    RawSample sample;
    RecordingEvent event;
    for (pm::RecordingReader::Item item;
         (item = reader.Next(sample, event)) != pm::RecordingReader::Item::kEnd;) {
      if (item == pm::RecordingReader::Item::kSample) {
        walk.OnSample(sample);
      } else {
        walk.OnEvent(event);
        clocks.OnEvent(event);
      }
    }
    return Reports(reader.info(), walk, clocks) + (reader.truncated() ? "truncated\n" : "");
  } catch (const pm::FormatError& e) {
    if (!skim) return std::nullopt;
    return std::string("error: ") + e.what() + "\n";
  }
}

// As the recorder writes: a sync flush after each line.
std::string Compress(pm::Compression codec, std::string_view plain) {
  pm::StringOutputStream sink;
  std::unique_ptr<pm::OutputStream> z =
      pm::MakeCompressor(codec, sink, pm::FirstFlush::kStored);
  for (size_t at = 0; at < plain.size();) {
    size_t nl = plain.find('\n', at);
    size_t end = nl == std::string_view::npos ? plain.size() : nl + 1;
    z->Write(plain.substr(at, end - at));
    z->Flush();
    at = end;
  }
  z->Finish();
  return sink.data();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Reading read = Read(bytes);
  const std::string& plain = read.out;
  if (std::optional<std::string> full = SummaryReports(bytes, false))
    pm::fuzz::Require(SummaryReports(bytes, true) == full, "summary's skim reads as the full read");
  // A hole of zeros is the file's, not its content's: the reader reads on
  // after one at the start of the file, never inside a compressed stream.
  if (pm::DetectCompression(bytes.substr(0, pm::kMagicLength)) != pm::Compression::kPlain ||
      bytes.starts_with('\0'))
    return 0;
  if (read.clean && (read.version == 1 || read.version == 2)) CheckRecovery(bytes, read);
  pm::fuzz::Require(Transcript(Compress(pm::Compression::kGzip, bytes)) == plain,
                    "gzip reads as plain");
  pm::fuzz::Require(Transcript(Compress(pm::Compression::kZstd, bytes)) == plain,
                    "zstd reads as plain");
  return 0;
}
