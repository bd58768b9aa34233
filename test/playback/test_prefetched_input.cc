// PrefetchedInput: the source's bytes in order whatever the read sizes,
// its end, and its failure at the same point of the stream; and summary's
// reading through it equal to the reading without it on every cut and
// every flipped byte of a compressed recording.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/prefetched_input.hh"
#include "playback/reading/recording_reader.hh"
#include "test/playback/pgr_builder.hh"
#include "test/positions.hh"
#include "test/proto/decode_checking.hh"
#include "test/playback/damage.hh"

using namespace pm;
using namespace pm::test;

namespace {

// `bytes` in reads of at most `chunk` bytes, then a FormatError when
// `fail` is set (as a decompressor meeting corrupt data).
class ChunkedSource final : public InputStream {
 public:
  ChunkedSource(std::string bytes, size_t chunk, bool fail)
      : bytes_(std::move(bytes)), chunk_(chunk), fail_(fail) {}
  size_t Read(std::span<char> buf) override {
    size_t n = std::min({buf.size(), chunk_, bytes_.size() - at_});
    if (n == 0 && fail_) throw FormatError("corrupt at byte " + std::to_string(at_));
    std::copy_n(bytes_.data() + at_, n, buf.data());
    at_ += n;
    return n;
  }

 private:
  std::string bytes_;
  size_t chunk_;
  bool fail_;
  size_t at_ = 0;
};

std::string Pattern(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out.push_back(static_cast<char>('a' + (i * 7) % 26));
  return out;
}

// Everything read through a PrefetchedInput in reads of `take` bytes (0:
// borrowed, in views of its blocks), and what ended it.
std::string ReadThrough(ChunkedSource& source, size_t take, std::string& ended) {
  PrefetchedInput in(source);
  std::string out;
  std::vector<char> buf(take);
  try {
    if (take == 0) {
      for (std::span<const char> view; !(view = in.Borrow({})).empty();)
        out.append(view.data(), view.size());
    } else {
      while (size_t n = in.Read(buf)) out.append(buf.data(), n);
    }
    ended = "end";
  } catch (const FormatError& e) {
    ended = e.what();
  }
  return out;
}

struct Read {
  std::vector<std::string> items;
  uint64_t samples = 0;
  bool truncated = false;
  std::string error = "no error";
  bool operator==(const Read&) const = default;
};

// Every item `bytes` holds, read as summary does (`skim`) or as play does.
Read ReadAll(const std::string& bytes, bool skim, bool read_ahead) {
  Read out;
  try {
    MemoryInputStream in(bytes);
    RecordingReader reader(in);
    if (read_ahead) reader.ReadAhead();
    if (skim) reader.SkimSamples();
    RawSample s;
    RecordingEvent e;
    for (RecordingReader::Item item;
         (item = reader.Next(s, e)) != RecordingReader::Item::kEnd;)
      out.items.push_back(item == RecordingReader::Item::kSample ? Dump(s) : Dump(e));
    out.samples = reader.samples_read();
    out.truncated = reader.truncated();
    if (reader.damaged()) out.error = FirstDamage(reader.warnings());
  } catch (const FormatError& e) {
    out.error = e.what();
  }
  return out;
}

std::vector<std::string> Lines(int samples) {
  Shape shape;
  std::vector<std::string> lines = {EncodeHeaderLine(Header(shape))};
  for (int k = 0; k < samples; ++k) {
    RawSample s = MakeSample(shape, static_cast<uint64_t>(2 * k));
    lines.push_back(SampleLine(s));
    if (k == samples / 2) lines.push_back(EncodeEventLine("pause", s.time_ns, s.mono_ns));
  }
  return lines;
}

}  // namespace

TEST_SUITE("prefetched input") {

TEST_CASE("the source's bytes in order, read or borrowed, then its end or its error") {
  const size_t kBlock = PrefetchedInput::kBlockSize;
  for (size_t size : {size_t{0}, size_t{1}, kBlock - 1, kBlock, 5 * kBlock + 3, 9 * kBlock}) {
    for (size_t chunk : {size_t{1000}, kBlock + 17}) {
      for (size_t take : {size_t{0}, size_t{1}, size_t{4096}, 3 * kBlock}) {
        // Byte by byte: slow, adds nothing past a block (under a sanitizer,
        // nothing past a byte: the hand-overs are at the blocks' ends).
        if (take == 1 && size > (kSanitized ? 1 : kBlock)) continue;
        for (bool fail : {false, true}) {
          CAPTURE(size);
          CAPTURE(chunk);
          CAPTURE(take);
          CAPTURE(fail);
          ChunkedSource source(Pattern(size), chunk, fail);
          std::string ended;
          CHECK(ReadThrough(source, take, ended) == Pattern(size));
          CHECK(ended == (fail ? "corrupt at byte " + std::to_string(size) : "end"));
        }
      }
    }
  }
}

TEST_CASE("stopped early: the thread ends with the stream") {
  ChunkedSource source(Pattern(20 * PrefetchedInput::kBlockSize), 4096, false);
  PrefetchedInput in(source);
  char byte;
  CHECK(in.Read(std::span(&byte, 1)) == 1);
  CHECK(byte == 'a');
}  // destroyed with the ring full and the thread waiting

// The reading through the thread and without it alike, summary's (`skim`)
// or play's, on every cut and every flipped byte (a spread of them under a
// sanitizer: test/positions.hh).
void CheckThreadChangesNothing(bool skim) {
  auto read = [skim](const std::string& bytes, bool read_ahead) {
    return ReadAll(bytes, skim, read_ahead);
  };
  std::vector<std::string> lines = Lines(6);
  std::string corrupt_lines = Lines(12)[0] + Lines(12)[1] + "{\"t\":1,oops}\n";
  for (Compression c : {Compression::kGzip, Compression::kZstd}) {
    CAPTURE(CompressionName(c));
    std::string bytes = Compress(c, lines);
    Read whole = read(bytes, true);
    CHECK(whole == read(bytes, false));
    CHECK(whole.samples == 6);
    for (size_t cut : Positions(0, bytes.size())) {
      CAPTURE(cut);
      CHECK(read(bytes.substr(0, cut), true) == read(bytes.substr(0, cut), false));
    }
    int errors = 0;
    for (size_t i : Positions(0, bytes.size())) {
      std::string broken = bytes;
      broken[i] = static_cast<char>(broken[i] ^ 0x55);
      CAPTURE(i);
      Read got = read(broken, true);
      CHECK(got == read(broken, false));
      errors += got.error != "no error";
    }
    CHECK(errors > 0);
    std::string corrupt = Compress(c, {corrupt_lines});
    Read refused = read(corrupt, true);
    CHECK(refused.error.starts_with("pgr line 3, byte "));
    CHECK(refused == read(corrupt, false));
  }
}

TEST_CASE("summary's reading through the thread: every cut, every flipped byte alike") {
  CheckThreadChangesNothing(true);
}

TEST_CASE("play's reading through the thread: every cut, every flipped byte alike") {
  CheckThreadChangesNothing(false);
}

// The decompressor's truncated() is written by the read-ahead thread, and
// read once it is joined (ThreadSanitizer checks that here): on a cut the
// reader's first reads met before the thread started (inside the header),
// and on one the thread met.
TEST_CASE("truncated() read ahead: the cut met before the thread started, or by it") {
  std::vector<std::string> lines = Lines(40);
  for (Compression c : {Compression::kGzip, Compression::kZstd}) {
    CAPTURE(CompressionName(c));
    std::string bytes = Compress(c, lines);
    for (size_t cut : {size_t{40}, bytes.size() / 2}) {
      CAPTURE(cut);
      Read ahead = ReadAll(bytes.substr(0, cut), false, true);
      CHECK(ahead.error == "no error");
      CHECK(ahead.truncated);
      CHECK(ahead == ReadAll(bytes.substr(0, cut), false, false));
    }
  }
}

// The thread takes over gzip's CRC-32 and length checks only once the
// header is read: the recording must be longer than what the reader reads
// at first. Three members, each trailer byte flipped in turn, and a member
// whose length field lies: the same lines, then the same error, as zlib's
// own check gives without the thread.
TEST_CASE("gzip's checks made on the reader's thread: every trailer byte of every member") {
  std::vector<std::string> lines = Lines(600);
  REQUIRE(lines.size() > 500);
  const std::vector<std::string> parts[] = {
      {lines.begin(), lines.begin() + 200},
      {lines.begin() + 200, lines.begin() + 450},
      {lines.begin() + 450, lines.end()},
  };
  std::string bytes;
  std::vector<size_t> member_ends;
  for (const std::vector<std::string>& part : parts) {
    bytes += Compress(Compression::kGzip, part);
    member_ends.push_back(bytes.size());
  }
  REQUIRE(bytes.size() > 3 * 8);
  for (bool skim : {true, false}) {
    CAPTURE(skim);
    Read whole = ReadAll(bytes, skim, true);
    CHECK(whole.error == "no error");
    CHECK(whole == ReadAll(bytes, skim, false));
    for (size_t end : member_ends) {
      // Under a sanitizer the first byte of each field, CRC-32 and length.
      for (size_t i = end - 8; i < end; i += kSanitized ? 4 : 1) {
        CAPTURE(i);
        std::string broken = bytes;
        broken[i] = static_cast<char>(broken[i] ^ 0x01);
        Read got = ReadAll(broken, skim, true);
        CHECK(got.error.starts_with("corrupt gzip data at byte "));
        CHECK(got == ReadAll(broken, skim, false));
      }
    }
  }
}

// A source that gives a byte at a time makes the decoder meet a member's
// end in one read and what follows in the next, or both in one read that
// fails: the member's check still comes first, as zlib's own does.
TEST_CASE("a member's check comes before the failure that follows it") {
  auto with_bad_crc = [](std::string member) {
    member[member.size() - 6] = static_cast<char>(member[member.size() - 6] ^ 0x01);
    return member;
  };
  std::string member = Compress(Compression::kGzip, Lines(300));
  // One that ends exactly where the thread's first block does: its end is
  // met by the next block's first read, which then fails.
  std::string block = Compress(Compression::kGzip, {Pattern(100 + PrefetchedInput::kBlockSize)});
  for (const std::string& first : {member, with_bad_crc(member), with_bad_crc(block)}) {
    for (const std::string& after : {std::string(), std::string("garbage"), member}) {
      std::string bytes = first + after;
      CAPTURE(after.size());
      test::OneByteInput source(bytes);
      std::unique_ptr<DecompressingInput> in = MakeDecompressor(source);
      std::string got(100, '\0');  // read before the thread starts, as the header is
      for (size_t at = 0; at < got.size();)
        at += in->Read(std::span(got).subspan(at));
      try {
        PrefetchedInput ahead(*in, in.get());
        std::vector<char> buf(4096);
        while (size_t n = ahead.Read(buf)) got.append(buf.data(), n);
        got += "|end";
      } catch (const FormatError& e) {
        got += std::string("|") + e.what();
      }
      CHECK(got == test::DecodeChecking(bytes, std::string::npos));
    }
  }
}

}  // TEST_SUITE
