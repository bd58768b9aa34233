#include <doctest/doctest.h>
#include <zlib.h>
#include <zstd.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "proto/codec.hh"
#include "test/proto/decode_checking.hh"
#include "test/proto/stream_test_util.hh"

using pm::Compression;
using namespace pm::test;

namespace {

constexpr Compression kAll[] = {Compression::kPlain, Compression::kGzip,
                                Compression::kZstd};
constexpr Compression kCompressed[] = {Compression::kGzip, Compression::kZstd};

}  // namespace

TEST_CASE("the output name chooses the codec") {
  struct Row { std::string_view path; Compression want; };
  const Row rows[] = {
      {"q42.pgr.gz", Compression::kGzip},  {"q42.pgr.zst", Compression::kZstd},
      {"q42.pgr", Compression::kPlain},    {"/tmp/x.gz", Compression::kGzip},
      {".gz", Compression::kGzip},         {"gz", Compression::kPlain},
      {"a.gz.pgr", Compression::kPlain},   {"a.GZ", Compression::kPlain},
      {"a.zstd", Compression::kPlain},     {"a.tgz", Compression::kPlain},
      {"-", Compression::kPlain},          {"", Compression::kPlain},
  };
  for (const Row& row : rows) {
    CAPTURE(row.path);
    CHECK(pm::CompressionForPath(row.path) == row.want);
  }
}

TEST_CASE("readers detect the codec by magic bytes") {
  struct Row { std::string_view first; Compression want; };
  const Row rows[] = {
      {std::string_view("\x1f\x8b\x08\x00", 4), Compression::kGzip},
      {std::string_view("\x28\xb5\x2f\xfd", 4), Compression::kZstd},
      {"{\"fo", Compression::kPlain},
      {"", Compression::kPlain},
      // A whole stream cut inside a magic: a truncated recording.
      {"\x1f", Compression::kGzip},
      {"\x1f\x8b", Compression::kGzip},
      {"\x28\xb5\x2f", Compression::kZstd},
      {"\x28", Compression::kZstd},
      {std::string_view("\x1f\x00\x00\x00", 4), Compression::kPlain},
      {std::string_view("\x28\xb5\x2f\x00", 4), Compression::kPlain},
      {"\x8b\x1f", Compression::kPlain},
      {"\xfd\x2f\xb5\x28", Compression::kPlain},
  };
  for (const Row& row : rows) {
    CAPTURE(row.first.size());
    CHECK(pm::DetectCompression(row.first) == row.want);
  }
  CHECK(pm::CompressionName(Compression::kGzip) == "gzip");
  CHECK(pm::CompressionName(Compression::kZstd) == "zstd");
  CHECK(pm::CompressionName(Compression::kPlain) == "plain");
}

TEST_CASE("every codec round-trips a recording, and each Flush is a sync point") {
  const std::vector<std::string> lines = RecordingLines(50);
  for (Compression c : kAll) {
    CAPTURE(pm::CompressionName(c));
    Compressed out = Compress(c, lines);
    Decoded all = DecodeLines(out.bytes);
    CHECK(all.compression == c);
    CHECK(all.lines == lines);
    CHECK_FALSE(all.truncated);
    CHECK_FALSE(all.partial_tail);
    // The live-reader guarantee: the bytes up to the k-th Flush decode to
    // exactly the first k lines.
    for (size_t k = 0; k < out.flush_ends.size(); ++k) {
      Decoded live = DecodeLines(std::string_view(out.bytes).substr(
          0, out.flush_ends[k]));
      REQUIRE(live.lines.size() == k + 1);
      CHECK(IsPrefix(live.lines, lines));
      CHECK_FALSE(live.partial_tail);
      CHECK(live.truncated == (c != Compression::kPlain));
    }
  }
}

TEST_CASE("a slow pipe decodes like a whole buffer") {
  const std::vector<std::string> lines = RecordingLines(30);
  for (Compression c : kAll) {
    CAPTURE(pm::CompressionName(c));
    Compressed out = Compress(c, lines);
    OneByteInput slow(out.bytes);
    Decoded got = DecodeLines(slow);
    CHECK(got.compression == c);
    CHECK(got.lines == lines);
    CHECK_FALSE(got.truncated);
  }
}

TEST_CASE("a compressor writes each flushed sample in one sink Write") {
  const std::vector<std::string> lines = RecordingLines(20);
  for (Compression c : kCompressed) {
    CAPTURE(pm::CompressionName(c));
    CountingOutput sink;
    auto compressor = pm::MakeCompressor(c, sink);
    for (const std::string& line : lines) {
      int before = sink.writes();
      compressor->Write(line);
      compressor->Write("\n");
      CHECK(sink.writes() == before);  // buffered until the sync point
      compressor->Flush();
      CHECK(sink.writes() == before + 1);
    }
    compressor->Finish();
    CHECK(DecodeLines(sink.data()).lines == lines);
  }
}

TEST_CASE("the plain codec forwards Flush and Finish") {
  pm::StringOutputStream sink;
  auto plain = pm::MakeCompressor(Compression::kPlain, sink);
  plain->Write("a\n");
  plain->Flush();
  CHECK(sink.flushes() == 1);
  CHECK_FALSE(sink.finished());
  plain->Finish();
  CHECK(sink.finished());
  CHECK(sink.data() == "a\n");
}

TEST_CASE("an empty compressed stream decodes to nothing, cleanly") {
  for (Compression c : kAll) {
    CAPTURE(pm::CompressionName(c));
    Decoded got = DecodeLines(Compress(c, {}).bytes);
    CHECK(got.lines.empty());
    CHECK_FALSE(got.truncated);
    CHECK_FALSE(got.partial_tail);
  }
}

TEST_CASE("concatenated gzip members and zstd frames decode fully") {
  const std::vector<std::string> a = RecordingLines(5);
  const std::vector<std::string> b = {"{\"event\":\"mark\"}", "{\"x\":1}"};
  for (Compression c : kCompressed) {
    CAPTURE(pm::CompressionName(c));
    std::string first = Compress(c, a).bytes;
    std::string both = first + Compress(c, b).bytes;
    Decoded got = DecodeLines(both);
    CHECK(got.lines == Concat(a, b));
    CHECK_FALSE(got.truncated);
    // A cut inside the second member is still a truncation.
    Decoded cut = DecodeLines(std::string_view(both).substr(0, both.size() - 3));
    CHECK(cut.truncated);
    CHECK(IsPrefix(cut.lines, Concat(a, b)));
    CHECK(cut.lines.size() >= a.size());
  }
}

TEST_CASE("corrupt compressed data is a FormatError naming the byte offset") {
  const std::vector<std::string> lines = RecordingLines(200);
  for (Compression c : kCompressed) {
    const std::string good = Compress(c, lines).bytes;
    const std::string prefix =
        "corrupt " + std::string(pm::CompressionName(c)) + " data at byte ";
    for (size_t at : {good.size() / 4, good.size() / 2, good.size() * 3 / 4,
                      good.size() - 2}) {
      CAPTURE(pm::CompressionName(c));
      CAPTURE(at);
      std::string bad = good;
      bad[at] = static_cast<char>(bad[at] ^ 0xff);
      std::string what;
      try {
        DecodeLines(bad);
      } catch (const pm::FormatError& e) {
        what = e.what();
      }
      REQUIRE(what.starts_with(prefix));
      // Nothing before the flipped byte is wrong, so the decoder cannot
      // notice before it has taken that byte in.
      size_t offset = std::stoul(what.substr(prefix.size()));
      CHECK(offset > at);
      CHECK(offset <= good.size());
    }
  }
}

// A flipped byte in gzip's CRC/size trailer or zstd's frame checksum: the
// data itself is intact, so every line comes out before the error (zcat
// behaves the same); the whole file used to be lost with it.
TEST_CASE("damage only in the trailer keeps every line before it") {
  for (int samples : {21, 301}) {
    const std::vector<std::string> lines = RecordingLines(samples);
    for (Compression c : kCompressed) {
      CAPTURE(pm::CompressionName(c));
      CAPTURE(samples);
      std::string bad = Compress(c, lines).bytes;
      size_t at = bad.size() - (c == Compression::kGzip ? 6 : 2);  // CRC / checksum
      bad[at] = static_cast<char>(bad[at] ^ 0xff);
      pm::MemoryInputStream source(bad);
      auto input = pm::MakeDecompressor(source);
      std::string text;
      std::string what = ReadUntilError(*input, text);
      CHECK(what.starts_with("corrupt " + std::string(pm::CompressionName(c))));
      CHECK(CompleteLines(text) == lines);
    }
  }
}

TEST_CASE("garbage after a gzip member is corrupt, not a new member") {
  std::string bytes = Compress(Compression::kGzip, {"{}"}).bytes + "junk\n";
  CHECK_THROWS_AS(DecodeLines(bytes), pm::FormatError);
}

TEST_CASE("gzip with a stored first flush: a plain copy, then compression") {
  const std::vector<std::string> lines = RecordingLines(40);
  pm::StringOutputStream stored_first;
  pm::StringOutputStream compressed_first;
  auto a = pm::MakeCompressor(Compression::kGzip, stored_first, pm::FirstFlush::kStored);
  auto b = pm::MakeCompressor(Compression::kGzip, compressed_first);
  size_t first_flush_bytes = 0;
  for (const std::string& line : lines) {
    for (auto* c : {a.get(), b.get()}) {
      c->Write(line);
      c->Write("\n");
      c->Flush();
    }
    if (first_flush_bytes == 0) first_flush_bytes = stored_first.data().size();
  }
  a->Finish();
  b->Finish();
  // The first line went out verbatim (a stored block)...
  CHECK(stored_first.data().substr(0, first_flush_bytes).find(lines[0]) !=
        std::string::npos);
  // ...and every line after it was compressed as usual: the two streams
  // differ by about the first line's size, not by a plain copy of it all.
  CHECK(stored_first.data().size() < compressed_first.data().size() + lines[0].size());
  CHECK(DecodeLines(stored_first.data()).lines == lines);
}

// DeferChecks: the CRC-32 and length checks made by the reader fail where
// zlib's own fail, with the same message after the same bytes, whether the
// reader takes them over at the start, inside a member or at its end.
TEST_CASE("gzip's checks made by the reader fail as zlib's") {
  std::string bytes;
  std::vector<size_t> ends;  // of members, in the compressed and the decoded bytes
  std::vector<size_t> decoded_ends;
  size_t decoded = 0;
  for (int samples : {3, 1, 4}) {
    std::vector<std::string> lines = RecordingLines(samples);
    bytes += Compress(Compression::kGzip, lines).bytes;
    ends.push_back(bytes.size());
    for (const std::string& line : lines) decoded += line.size() + 1;
    decoded_ends.push_back(decoded);
  }
  const size_t never = std::string::npos;
  const std::string whole = DecodeChecking(bytes, never);
  REQUIRE(whole.ends_with("|end"));
  const size_t froms[] = {0, 1, decoded_ends[0] / 2, decoded_ends[0], decoded_ends[1] + 3};
  for (size_t from : froms) CHECK(DecodeChecking(bytes, from) == whole);
  for (size_t end : ends) {
    for (size_t i = end - 8; i < end; ++i) {
      CAPTURE(i);
      std::string bad = bytes;
      bad[i] = static_cast<char>(bad[i] ^ 0x10);
      const std::string by_zlib = DecodeChecking(bad, never);
      CHECK(by_zlib.find("|corrupt gzip data at byte ") != std::string::npos);
      for (size_t from : froms) {
        CAPTURE(from);
        CHECK(DecodeChecking(bad, from) == by_zlib);
      }
    }
  }
  // Cut inside a trailer, its CRC right or wrong: zlib checks the CRC once
  // it is whole, though the size is not.
  for (size_t end : ends) {
    std::string bad = bytes;
    bad[end - 8] = static_cast<char>(bad[end - 8] ^ 0x10);
    for (const std::string& whole_bytes : {bytes, bad}) {
      for (size_t cut = end - 9; cut < end; ++cut) {
        CAPTURE(cut);
        std::string cut_bytes = whole_bytes.substr(0, cut);
        const std::string by_zlib = DecodeChecking(cut_bytes, never);
        for (size_t from : froms) {
          CAPTURE(from);
          CHECK(DecodeChecking(cut_bytes, from) == by_zlib);
        }
      }
    }
  }
}

namespace {

// One gzip member whose header carries its own CRC (FHCRC, which gzip(1)
// does not write; fuzz_checks found it mattered).
std::string MemberWithHeaderCrc(std::string_view text) {
  z_stream s{};
  REQUIRE(deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  gz_header header{};
  header.hcrc = 1;
  REQUIRE(deflateSetHeader(&s, &header) == Z_OK);
  std::string out(deflateBound(&s, text.size()) + 64, '\0');
  s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  s.avail_in = static_cast<uInt>(text.size());
  s.next_out = reinterpret_cast<Bytef*>(out.data());
  s.avail_out = static_cast<uInt>(out.size());
  REQUIRE(deflate(&s, Z_FINISH) == Z_STREAM_END);
  out.resize(s.total_out);
  deflateEnd(&s);
  return out;
}

}  // namespace

// zlib still checks each member's header when the reader checks its bytes.
TEST_CASE("gzip's header CRC is checked whoever checks the bytes") {
  std::string first = MemberWithHeaderCrc("{\"t\":1}\n");
  std::string bytes = first + MemberWithHeaderCrc("{\"t\":2}\n{\"t\":3}\n");
  REQUIRE(static_cast<unsigned char>(bytes[3]) == 0x02);  // FHCRC
  CHECK(DecodeChecking(bytes, 0) == "{\"t\":1}\n{\"t\":2}\n{\"t\":3}\n|end");
  for (size_t at : {size_t{10}, first.size() + 10, first.size() + 11}) {  // a header CRC byte
    CAPTURE(at);
    std::string bad = bytes;
    bad[at] = static_cast<char>(bad[at] ^ 0x01);
    const std::string by_zlib = DecodeChecking(bad, std::string::npos);
    CHECK(by_zlib.ends_with("header crc mismatch"));
    for (size_t from : {size_t{0}, size_t{3}}) CHECK(DecodeChecking(bad, from) == by_zlib);
  }
}

// zstd's content checksum is computed by ZstdInputStream, not zstd, so the
// reader can take it over in the middle of a frame: frames with and
// without a checksum and a skippable one, each checksum byte flipped, cut
// inside each checksum. The message and offset are what zstd gave.
TEST_CASE("zstd's checksums made by the reader fail as the decoder's") {
  std::string first = Compress(Compression::kZstd, RecordingLines(3)).bytes;
  std::string skippable("\x50\x2a\x4d\x18\x03\x00\x00\x00" "abc", 11);
  const std::string plain = "{\"no\":\"checksum\"}\n";
  std::string unchecked(ZSTD_compressBound(plain.size()), '\0');
  unchecked.resize(ZSTD_compress(unchecked.data(), unchecked.size(), plain.data(), plain.size(), 1));
  REQUIRE((static_cast<unsigned char>(unchecked[4]) & 0x04) == 0);  // no checksum flag
  std::string last = Compress(Compression::kZstd, RecordingLines(4)).bytes;
  const std::string bytes = first + skippable + last + unchecked;
  const std::vector<size_t> checksum_ends = {first.size(),
                                             first.size() + skippable.size() + last.size()};
  const size_t never = std::string::npos;
  for (bool whole : {false, true}) {
    CAPTURE(whole);
    const std::string read = DecodeChecking(bytes, never, whole);
    REQUIRE(read.ends_with("|end"));
    const size_t froms[] = {0, 1, 100, read.size() - 60, read.find("{\"no\"")};
    for (size_t from : froms) CHECK(DecodeChecking(bytes, from, whole) == read);
    for (size_t end : checksum_ends) {
      for (size_t i = end - 4; i < end; ++i) {
        CAPTURE(i);
        std::string bad = bytes;
        bad[i] = static_cast<char>(bad[i] ^ 0x20);
        const std::string by_decoder = DecodeChecking(bad, never, whole);
        CHECK(by_decoder.ends_with("|corrupt zstd data at byte " + std::to_string(end) +
                                   ": Restored data doesn't match checksum"));
        for (size_t from : froms) CHECK(DecodeChecking(bad, from, whole) == by_decoder);
      }
      for (size_t cut = end - 4; cut < end; ++cut) {
        CAPTURE(cut);
        const std::string by_decoder = DecodeChecking(bytes.substr(0, cut), never, whole);
        for (size_t from : froms)
          CHECK(DecodeChecking(bytes.substr(0, cut), from, whole) == by_decoder);
      }
    }
  }
}
