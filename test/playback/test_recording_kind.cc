// What RecordingReader makes of an input before any reader runs (the kind
// told by the first bytes, recording_kind.hh), and whether a native
// recording was closed cleanly: inputs that are no recording (text, random
// bytes, a file zero-filled by another process) and recordings without
// their end trailer.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/recording_kind.hh"
#include "playback/reading/recording_reader.hh"
#include "test/playback/legacy_data.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/damage.hh"

using namespace pm;
using namespace pm::test;

namespace {

std::string ErrorOf(std::string_view bytes) {
  MemoryInputStream in(bytes);
  try {
    RecordingReader reader(in);
    RawSample s;
    RecordingEvent e;
    while (reader.Next(s, e) != RecordingReader::Item::kEnd) {
    }
    if (reader.damaged()) return FirstDamage(reader.warnings());
  } catch (const FormatError& e) {
    return e.what();
  }
  return "no error";
}

struct Read {
  uint64_t samples = 0;
  bool truncated = false;
  bool missing_trailer = false;
};

Read ReadAll(std::string_view bytes) {
  MemoryInputStream in(bytes);
  RecordingReader reader(in);
  RawSample s;
  RecordingEvent e;
  while (reader.Next(s, e) != RecordingReader::Item::kEnd) {
  }
  return {reader.samples_read(), reader.truncated(), reader.missing_trailer()};
}

// Header, three samples, the end trailer: one line each.
std::vector<std::string> Lines() {
  Shape shape;
  std::vector<std::string> lines = {EncodeHeaderLine(Header(shape))};
  for (uint64_t k = 0; k < 3; ++k) lines.push_back(SampleLine(MakeSample(shape, k)));
  lines.push_back(EncodeEndLine({1'800'000'000'000'000'000, 9, "stop-fd", 3, 0}));
  return lines;
}

std::string Joined(const std::vector<std::string>& lines, size_t count) {
  std::string out;
  for (size_t i = 0; i < count; ++i) out += lines[i];
  return out;
}

}  // namespace

TEST_SUITE("recording kind") {

TEST_CASE("the first bytes tell a pgr file, a gob stream, zeros and anything else") {
  struct Row {
    std::string head;
    RecordingKind kind;
  };
  const std::string busy = ReadLegacyFile("busy100.pgr").substr(0, kKindHeadBytes);
  const Row rows[] = {
      {"{\"format\":\"perfm", RecordingKind::kNative},
      {"{", RecordingKind::kNative},
      {busy, RecordingKind::kLegacy},                               // 0x43, 0xff 0x81
      {std::string("\xfe\x01\x20\xff\x81", 5), RecordingKind::kLegacy},  // long message
      {std::string("\xfe\x01\x20\xfe\x01\x8f", 6), RecordingKind::kLegacy},  // id 200
      {"{\xff\x81", RecordingKind::kLegacy},  // a gob message 123 bytes long
      {"C", RecordingKind::kLegacy},          // too short to tell: a cut gob stream
      {std::string("\0\0\0\0", 4), RecordingKind::kZeros},
      {std::string("\0{\"format\"", 10), RecordingKind::kZeros},
      {"root:x:0:0:root:", RecordingKind::kForeign},
      {"\xf0\x01\x02", RecordingKind::kForeign},  // no gob length starts 0xf0
      {"\x10\x05\x06", RecordingKind::kForeign},  // a type id that fits one byte
      {"\x89PNG\r\n\x1a\n", RecordingKind::kForeign},
  };
  for (const Row& row : rows) {
    CAPTURE(row.head);
    CHECK(KindOf(row.head) == row.kind);
  }
}

TEST_CASE("text and random bytes are not a PerfMonger recording, quoted") {
  CHECK(ErrorOf("root:x:0:0:root:/root:/bin/bash\n") ==
        "not a PerfMonger recording: it starts with \"root:x:0:0:r\", neither a pgr "
        "header nor a PerfMonger 1.0 (gob) stream");
  CHECK(ErrorOf("\x89PNG\r\n\x1a\n\"\\rest") ==
        "not a PerfMonger recording: it starts with \"\\x89PNG\\x0d\\x0a\\x1a\\x0a\\\"\\\\re\", "
        "neither a pgr header nor a PerfMonger 1.0 (gob) stream");
  // Through a decompressor too: the kind is that of the decompressed bytes.
  CHECK(ErrorOf(Compress(Compression::kGzip, {"hello, world\n"})).starts_with(
      "not a PerfMonger recording: it starts with \"hello, world\""));
}

TEST_CASE("a zero-filled file says where its zeros are") {
  std::string recording = Joined(Lines(), 5);
  CHECK(ErrorOf(std::string(5000, '\0')) ==
        "not a PerfMonger recording: all its 5000 bytes are zeros (truncated and "
        "zero-padded by another process, or never written)");
  // Truncated by another process while the recorder kept writing at its
  // offset: a hole of zeros, then lines without a header.
  CHECK(ErrorOf(std::string(3000, '\0') + Lines()[2]) ==
        "another process truncated it while it was being written: bytes 0 to 2999 are "
        "zeros, and the header went with them; the data from byte 3000 on cannot be read "
        "without it");
  // So little after the hole that the reader's first look takes it all.
  CHECK(ErrorOf(std::string("\0xyz", 4)) ==
        "another process truncated it while it was being written: bytes 0 to 0 are zeros, "
        "and the header went with them; the data from byte 1 on cannot be read without it");
  CHECK(ErrorOf(Compress(Compression::kZstd, {std::string(10000, '\0'), Lines()[2]}))
            .starts_with("another process truncated it while it was being written: bytes 0 "
                         "to 9999 are zeros, "));
  // A compressed stream entered after the hole, in its middle.
  std::string gz = Compress(Compression::kGzip, {Joined(Lines(), 5)});
  CHECK(ErrorOf(std::string(100, '\0') + gz.substr(20)).starts_with(
      "another process truncated it while it was being written: bytes 0 to 99 are zeros, and "
      "the header went with them"));
  // Past the limit, the message says how much was looked at.
  std::string zeros(100, '\0');
  MemoryInputStream in(zeros);
  AfterLeadingZeros hole(in, 64);
  CHECK(ZerosMessage(hole, 64) ==
        "not a PerfMonger recording: its first 100 bytes are zeros (truncated and "
        "zero-padded by another process?)");
}

TEST_CASE("a recording after a hole of zeros is read from there, with a warning") {
  std::string recording = Joined(Lines(), 5);
  for (Compression c : {Compression::kPlain, Compression::kGzip, Compression::kZstd}) {
    CAPTURE(static_cast<int>(c));
    // In the file, before the compressed stream; 5000 zeros: the hole ends
    // inside the second 4 KiB read.
    std::string bytes = std::string(5000, '\0') +
                        (c == Compression::kPlain ? recording : Compress(c, {recording}));
    MemoryInputStream in(bytes);
    RecordingReader reader(in);
    CHECK(reader.info().host == "host-1");
    RawSample s;
    RecordingEvent e;
    while (reader.Next(s, e) != RecordingReader::Item::kEnd) {
    }
    CHECK(reader.samples_read() == 3);
    CHECK_FALSE(reader.missing_trailer());
    REQUIRE(reader.warnings().size() == 1);
    CHECK(reader.warnings()[0] ==
          "another process truncated it while it was being written: bytes 0 to 4999 are "
          "zeros; read the recording from byte 5000 on");
  }
}

TEST_CASE("zero bytes inside a recording are named with their line and byte") {
  std::vector<std::string> lines = Lines();
  std::string head = Joined(lines, 2);
  std::string bytes = head + std::string(7, '\0') + lines[2];
  CHECK(ErrorOf(bytes) == "pgr line 3, byte " + std::to_string(head.size()) +
                              ": zero bytes instead of a line");
}

TEST_CASE("a native recording without its end trailer was not closed cleanly") {
  std::vector<std::string> lines = Lines();
  Read whole = ReadAll(Joined(lines, lines.size()));
  CHECK(whole.samples == 3);
  CHECK_FALSE(whole.missing_trailer);
  CHECK_FALSE(whole.truncated);
  // Cut at every line boundary before the trailer: not truncated (no line
  // is cut), but missing the trailer, in every codec.
  for (Compression c : {Compression::kPlain, Compression::kGzip, Compression::kZstd}) {
    for (size_t n = 1; n < lines.size(); ++n) {
      CAPTURE(CompressionName(c));
      CAPTURE(n);
      std::vector<std::string> cut(lines.begin(), lines.begin() + static_cast<long>(n));
      Read got = ReadAll(c == Compression::kPlain ? Joined(lines, n) : Compress(c, cut));
      CHECK(got.samples == n - 1);
      CHECK(got.missing_trailer);
      CHECK_FALSE(got.truncated);
    }
  }
  // A sample after the trailer: the trailer no longer ends the recording.
  Read appended = ReadAll(Joined(lines, lines.size()) + lines[1]);
  CHECK(appended.missing_trailer);
  // Legacy recordings have no trailer to miss.
  Read legacy = ReadAll(ReadLegacyFile("busy100.pgr"));
  CHECK(legacy.samples == 4);
  CHECK_FALSE(legacy.missing_trailer);
}

}  // TEST_SUITE
