// A recording cut at any byte (a crash, SIGKILL, a live file) must read
// back as every complete line before the cut: never an exception, never a
// line that was not written.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "proto/codec.hh"
#include "test/proto/stream_test_util.hh"

using pm::Compression;
using namespace pm::test;

namespace {

// Lines whose Flush had completed at byte `cut`: a reader is owed these.
size_t LinesFlushedBy(const Compressed& rec, size_t cut) {
  size_t n = 0;
  while (n < rec.flush_ends.size() && rec.flush_ends[n] <= cut) ++n;
  return n;
}

void CheckEveryCut(Compression c, bool one_byte_reads, size_t line_count = 20) {
  const std::vector<std::string> lines = RecordingLines(line_count);
  const Compressed rec = Compress(c, lines);
  size_t previous = 0;
  for (size_t cut = 0; cut <= rec.bytes.size(); ++cut) {
    CAPTURE(cut);
    std::string_view prefix = std::string_view(rec.bytes).substr(0, cut);
    Decoded got;
    if (one_byte_reads) {
      OneByteInput slow(prefix);
      REQUIRE_NOTHROW(got = DecodeLines(slow));
    } else {
      REQUIRE_NOTHROW(got = DecodeLines(prefix));
    }
    REQUIRE(IsPrefix(got.lines, lines));
    CHECK(got.lines.size() >= LinesFlushedBy(rec, cut));
    CHECK(got.lines.size() >= previous);
    previous = got.lines.size();
    if (cut == rec.bytes.size()) {
      CHECK(got.lines == lines);
      CHECK_FALSE(got.truncated);
      CHECK_FALSE(got.partial_tail);
    } else if (c == Compression::kPlain) {
      // Plain text cut at a line end looks complete: only the pgr trailer
      // (the "end" event) can tell.
      bool at_line_end = cut == 0 || prefix.back() == '\n';
      CHECK(got.partial_tail == !at_line_end);
      CHECK_FALSE(got.truncated);
    } else if (cut > 0) {
      // An empty input is an empty plain stream: nothing to report.
      CHECK(got.compression == c);
      CHECK(got.truncated);
    }
  }
}

}  // namespace

TEST_CASE("a gzip recording cut at every length reads back its prefix") {
  CheckEveryCut(Compression::kGzip, false);
}

TEST_CASE("a zstd recording cut at every length reads back its prefix") {
  CheckEveryCut(Compression::kZstd, false);
}

TEST_CASE("a plain recording cut at every length reads back its prefix") {
  CheckEveryCut(Compression::kPlain, false);
}

// The cost grows with the square of the size (under ASan this was most of
// the proto suite's time): five lines are a header, several flushed blocks
// and the trailer, every kind of boundary the twenty above cross.
TEST_CASE("cuts read one byte at a time give the same lines") {
  CheckEveryCut(Compression::kGzip, true, 5);
  CheckEveryCut(Compression::kZstd, true, 5);
}

TEST_CASE("a recording never finished (killed writer) reads back fully") {
  const std::vector<std::string> lines = RecordingLines(20);
  for (Compression c : {Compression::kGzip, Compression::kZstd}) {
    CAPTURE(pm::CompressionName(c));
    Decoded got = DecodeLines(Compress(c, lines, /*finish=*/false).bytes);
    CHECK(got.lines == lines);
    CHECK(got.truncated);
    CHECK_FALSE(got.partial_tail);
  }
}
