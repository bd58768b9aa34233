// Reads a legacy PerfMonger recording (PerfMonger 0.x/1.0 `.pgr`, compat
// §3): a Go encoding/gob stream of CommonHeader, LinuxHeader, then
// StatRecord values to the end, with no count and no end marker.
//
// Only the types PerfMonger writes are decoded, matched by field name (type
// names carry a package prefix that changed between versions); other
// fields are skipped using the stream's own type definitions. Each record
// is decoded afresh: a field left out on the wire (gob omits zeros) reads
// as 0, never as an earlier record's value. Memory stays at one message.
//
// Errors: pm::FormatError "legacy recording: WHAT at byte N", N an offset
// in the decompressed gob stream.
#pragma once

#include <optional>

#include "playback/reading/gob_types.hh"
#include "playback/reading/gob_wire.hh"
#include "playback/reading/raw_sample.hh"
#include "proto/stream.hh"

namespace pm {

class LegacyReader {
 public:
  // `in` yields the decompressed gob stream (see MakeDecompressor) and must
  // outlive the reader. Reads the two headers and the first record (for
  // num_core) now. Throws FormatError on garbage; a stream that ends
  // before the headers are complete reads as truncated with no records.
  explicit LegacyReader(InputStream& in);

  // format "perfmonger-gob", host, start_ns (CommonHeader.StartTime),
  // num_core (from the first record; 0 without one). No interval, no meta.
  const RecordingInfo& info() const { return info_; }

  // The next StatRecord, into `out` (reset first). false at the end of the
  // input, or at a message cut short: then truncated() is true. Throws
  // FormatError on garbage.
  bool Next(RawSample& out);

  // The input ended inside a message or before the headers. (A gzip stream
  // cut between messages shows as the decompressor's truncated() instead.)
  bool truncated() const { return truncated_; }

 private:
  struct Value {
    gob::WireReader r;
    gob::TypeId id;
  };
  // The next value message, defining the types met on the way; nullopt at
  // the end of the input. Valid until the next call.
  std::optional<Value> NextValue();
  bool ReadHeaders();
  void ReadCommonHeader(Value& v);
  bool ReadRecord(RawSample& out);

  gob::MessageReader messages_;
  gob::TypeRegistry types_;
  RecordingInfo info_;
  std::optional<RawSample> first_;  // read ahead by the constructor
  bool truncated_ = false;
};

}  // namespace pm
