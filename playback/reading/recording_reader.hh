// One reader for every recording: native .pgr (NDJSON, proto/pgr_format.hh)
// and PerfMonger's legacy gob files, each plain, gzip or zstd — detected by
// magic bytes, never by name — from a file or stdin.
//
// Streams: memory stays flat however long the recording. Items come in
// file order: samples, and events (pause, resume, mark, end; unknown kinds
// are skipped, as pgr(5) says readers do, so tools never see them). A
// stream cut short (a partial last line, a compressed stream or gob message
// cut in the middle) ends the items cleanly and sets truncated(). A
// damaged line of a native recording is skipped and reading resumes after
// it (native_reader.hh): one warning per damaged span, and damaged() is
// set. What cannot be resumed after throws FormatError naming the byte
// offset (in the decompressed stream) and, for native files, the line: a
// garbled header, compressed data that does not decompress, a gob stream.
//
// Detection, after decompression, by the first bytes (recording_kind.hh):
// a native file starts with '{', a legacy one with a gob type definition;
// zero bytes or anything else is "not a PerfMonger recording" (FormatError
// saying what it is instead). A file that starts with zeros (another
// process truncated it while it was being written, and the writer went on
// at its offset) is read from where a recording starts after them, with a
// warning; data there without its header is a FormatError saying so.
//
// A native recording closed cleanly ends with its `end` trailer;
// missing_trailer() tells a reader that it was not (its recorder was killed
// or is still writing, or the file was cut at a line boundary), which
// truncated() alone cannot see. Legacy recordings have no trailer.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playback/reading/raw_sample.hh"
#include "playback/reading/time_cuts.hh"
#include "proto/stream.hh"

namespace pm {

class AfterLeadingZeros;
class DecompressingInput;
class PrefetchedInput;

class RecordingReader {
 public:
  enum class Item { kSample, kEvent, kEnd };

  // Reads the header now. Throws FormatError for garbage (exit 2 in the
  // tools), for an input that is no recording, and for an empty input
  // ("empty recording"). A compressed
  // stream cut before any data (or a native one inside its header) is not
  // an error: info() stays empty and Next() ends at once, truncated.
  // `in` must outlive the reader.
  explicit RecordingReader(InputStream& in);
  ~RecordingReader();
  RecordingReader(const RecordingReader&) = delete;
  RecordingReader& operator=(const RecordingReader&) = delete;

  const RecordingInfo& info() const;

  // The next item: a sample (into `sample`, reset first), an event (into
  // `event`; `sample` is then unspecified), or the end of the input.
  Item Next(RawSample& sample, RecordingEvent& event);

  // summary's reading, before the first Next(): of each run of samples
  // between other lines, only the first and the last are returned; the
  // others are validated against the line before without being parsed
  // (see playback/reading/skimmed_lines.hh for v1, skimmed_deltas.hh for v2) and
  // counted in samples_read(). Native recordings only; legacy ones are
  // read in full as before. `cuts` (a time window's, or null) split runs
  // where they cross them; they may be set later, and must outlive the
  // reader.
  void SkimSamples(const TimeCuts* cuts = nullptr);

  // Before the first Next(): a compressed recording is decompressed on a
  // second thread from the first Next() on (PrefetchedInput), so that
  // decompressing one stretch overlaps parsing the one before; when
  // skimming, the decompressor's check of its output (gzip's CRC-32,
  // zstd's checksum) is made on this thread, which has time to spare
  // then. Only for an input
  // whose reads never block (a regular file): the thread is stopped, not
  // interrupted, when the reader goes away. A plain input is read as is.
  void ReadAhead();

  // cat's reading, native recordings only ("" for legacy ones): the
  // header line, and the line behind the item Next() returned last as
  // version 1 text (a difference line rebuilt), valid until the next
  // Next(). KeepUnknownEvents(), before the first Next(), returns event
  // lines of kinds this reader does not know too, so cat loses none.
  std::string_view header_text() const;
  std::string_view line_text();
  void KeepUnknownEvents();

  bool truncated() const;         // valid once Next() returned kEnd
  // A native recording whose last item is not its end trailer; valid once
  // Next() returned kEnd.
  bool missing_trailer() const;
  // Damage passed over so far, one line each: a leading hole of zeros
  // (the file truncated while being written, a recording after it), lines
  // lost to corruption (v1 up to the next line read, v2 to the keyframe).
  std::span<const std::string> warnings() const;
  // Some lines were lost to damage (warnings() says which): the tools
  // exit 2 once everything recoverable is written.
  bool damaged() const { return !warnings().empty(); }
  uint64_t samples_read() const;

  class Source;  // native or legacy, behind one interface

 private:
  // Destroyed in reverse: the source reads peeked_, which reads
  // prefetched_ (when there is one), which reads decompressed_, which
  // reads the input after its leading zeros, if any (raw_).
  std::unique_ptr<AfterLeadingZeros> raw_;
  std::unique_ptr<DecompressingInput> decompressed_;
  std::unique_ptr<PrefetchedInput> prefetched_;  // reads decompressed_, or null
  std::unique_ptr<InputStream> peeked_;
  std::unique_ptr<Source> source_;
  std::vector<std::string> warnings_;
  size_t source_warnings_ = 0;  // of source_->warnings(), in warnings_
  uint64_t samples_read_ = 0;
  bool has_trailer_ = false;  // the format has one (native)
  bool ended_ = false;        // the last item was the end trailer
  bool read_ahead_ = false;   // asked for: prefetched_ starts at the first Next()
  bool skimming_ = false;

  void StartReadAhead();
};

class RecordingReader::Source {
 public:
  virtual ~Source() = default;
  virtual const RecordingInfo& info() const = 0;
  virtual Item Next(RawSample& sample, RecordingEvent& event) = 0;
  // The source's own view (a partial line or gob message); the
  // decompressor's is added by RecordingReader.
  virtual bool truncated() const = 0;
  virtual std::span<const std::string> warnings() const { return {}; }
  // Skim from now on where the format allows it (native_reader.hh);
  // other sources read in full.
  virtual void SkimSamples(const TimeCuts*) {}
  virtual uint64_t samples_skipped() const { return 0; }
  virtual std::string_view HeaderText() const { return {}; }
  virtual std::string_view LineText() { return {}; }
  virtual void KeepUnknownEvents() {}
};

}  // namespace pm
