// RecordingReader end to end: native recordings written with the project's
// own encoders, plain, gzip and zstd, read back; cuts at every byte; a
// table of corrupt lines; empty, header-only and legacy files.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/recording_reader.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/legacy_data.hh"
#include "test/playback/damage.hh"
#include "test/positions.hh"

using namespace pm;
using namespace pm::test;

namespace {

struct ReadResult {
  RecordingInfo info;
  std::vector<std::string> items;  // Dump() of each sample and event
  bool truncated = false;
  uint64_t samples = 0;
};

ReadResult ReadAll(std::string_view bytes) {
  MemoryInputStream in(bytes);
  RecordingReader reader(in);
  ReadResult out{reader.info(), {}, false, 0};
  RawSample s;  // reused, as the tools do
  RecordingEvent e;
  for (RecordingReader::Item item; (item = reader.Next(s, e)) != RecordingReader::Item::kEnd;)
    out.items.push_back(item == RecordingReader::Item::kSample ? Dump(s) : Dump(e));
  out.truncated = reader.truncated();
  out.samples = reader.samples_read();
  return out;
}

// The error that ends the read, or the first damaged span's.
std::string ErrorOf(std::string_view bytes) {
  try {
    MemoryInputStream in(bytes);
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

const Shape kShape;

struct Recording {
  std::vector<std::string> lines;
  std::vector<std::string> items;  // what a reader must give back
};

// Samples, events (a mark with escapes, pause/resume, an unknown kind that
// readers skip) and the end trailer.
Recording MakeRecording(int samples) {
  Recording r;
  r.lines.push_back(EncodeHeaderLine(Header(kShape, {{"run", "a b=c"}})));
  for (int k = 0; k < samples; ++k) {
    RawSample s = MakeSample(kShape, static_cast<uint64_t>(k));
    r.lines.push_back(SampleLine(s));
    r.items.push_back(Dump(s));
    if (k == 1) {
      const char* label = "phase \"2\" <b>\\ \xc3\xa9 \xf0\x9f\x98\x80\n";
      r.lines.push_back(EncodeEventLine("mark", s.time_ns, s.mono_ns, label));
      r.items.push_back(Dump(RecordingEvent{"mark", s.time_ns, label, ""}));
      r.lines.push_back(EncodeEventLine("pause", s.time_ns, s.mono_ns));
      r.items.push_back(Dump(RecordingEvent{"pause", s.time_ns, "", ""}));
      r.lines.push_back(EncodeEventLine("future-kind", s.time_ns, s.mono_ns, "x"));
      r.lines.push_back(EncodeEventLine("resume", s.time_ns + 1, s.mono_ns));
      r.items.push_back(Dump(RecordingEvent{"resume", s.time_ns + 1, "", ""}));
    }
  }
  r.lines.push_back(EncodeEndLine({1'800'000'000'000'000'000, 9, "stop-fd", 4, 0}));
  r.items.push_back(Dump(RecordingEvent{"end", 1'800'000'000'000'000'000, "", "stop-fd"}));
  return r;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line;
  return out;
}

constexpr Compression kCodecs[] = {Compression::kPlain, Compression::kGzip,
                                   Compression::kZstd};

}  // namespace

TEST_SUITE("recording reader") {

TEST_CASE("a native recording round-trips through every codec") {
  Recording rec = MakeRecording(4);
  for (Compression c : kCodecs) {
    CAPTURE(CompressionName(c));
    ReadResult got = ReadAll(Compress(c, rec.lines));
    CHECK(got.info.format == "perfmonger-pgr");
    CHECK(got.info.version == 1);
    CHECK(got.info.host == "host-1");
    CHECK(got.info.start_ns == 1'700'000'000'000'000'000);
    CHECK(got.info.interval_ns == 1'000'000'000);
    CHECK(got.info.num_core == 2);
    CHECK(got.info.meta == MetaList{{"run", "a b=c"}});
    CHECK(got.items == rec.items);
    CHECK(got.samples == 4);
    CHECK_FALSE(got.truncated);
  }
}

TEST_CASE("a cut at every byte yields a prefix, truncated unless at the end") {
  Recording rec = MakeRecording(3);
  for (Compression c : {Compression::kGzip, Compression::kZstd}) {
    std::string bytes = Compress(c, rec.lines);
    for (size_t cut : Positions(1, bytes.size() + 1)) {
      CAPTURE(CompressionName(c));
      CAPTURE(cut);
      ReadResult got = ReadAll(std::string_view(bytes).substr(0, cut));
      REQUIRE(got.items.size() <= rec.items.size());
      for (size_t i = 0; i < got.items.size(); ++i) REQUIRE(got.items[i] == rec.items[i]);
      REQUIRE(got.truncated == (cut != bytes.size()));
    }
  }
}

TEST_CASE("a plain cut is truncated exactly when it splits a line") {
  Recording rec = MakeRecording(2);
  std::string bytes = Join(rec.lines);
  for (size_t cut : Positions(1, bytes.size() + 1)) {
    CAPTURE(cut);
    ReadResult got = ReadAll(std::string_view(bytes).substr(0, cut));
    REQUIRE(got.items.size() <= rec.items.size());
    for (size_t i = 0; i < got.items.size(); ++i) REQUIRE(got.items[i] == rec.items[i]);
    REQUIRE(got.truncated == (bytes[cut - 1] != '\n'));
  }
}

TEST_CASE("a cut inside the header: no items, empty info, truncated") {
  std::string header = EncodeHeaderLine(Header(kShape));
  ReadResult got = ReadAll(std::string_view(header).substr(0, header.size() - 1));
  CHECK(got.items.empty());
  CHECK(got.truncated);
  CHECK(got.info.version == 0);
}

TEST_CASE("a header-only recording: no samples, not truncated") {
  for (Compression c : kCodecs) {
    CAPTURE(CompressionName(c));
    ReadResult got = ReadAll(Compress(c, {EncodeHeaderLine(Header(kShape))}));
    CHECK(got.items.empty());
    CHECK_FALSE(got.truncated);
    CHECK(got.info.host == "host-1");
  }
}

TEST_CASE("an empty recording is an error, compressed or not") {
  CHECK(ErrorOf("") == std::string("empty recording"));
  CHECK(ErrorOf(Compress(Compression::kGzip, {})) == std::string("empty recording"));
  CHECK(ErrorOf(Compress(Compression::kZstd, {})) == std::string("empty recording"));
}

TEST_CASE("a corrupt line names its line and byte, in any codec") {
  struct Case {
    std::string line;
    const char* reason;
  };
  const Case cases[] = {
      {"garbage", "malformed JSON (a comma, brace, colon or key)"},
      {R"({"t":1,"mono":2,})", "malformed JSON (a comma, brace, colon or key)"},
      {R"({"t":-1x})", "invalid number"},
      {R"({"t":1,"cpu":[[1,2]]})", "fewer values than the header's columns"},
      {R"({"t":1,"disk":[[-1]]})", "expected a non-negative integer"},
      {R"({"t":99999999999999999999})", "invalid number"},
      {"{\"t\":1,\"x\":\"\xff\"}", "invalid UTF-8"},
      {R"({"t":1,"cpu":null,"bogus":[1,]})", "malformed JSON (a comma, brace, colon or key)"},
      {R"({"mono":1})", "a sample without \"t\""},
      {R"({"t":1} x)", "malformed JSON (a comma, brace, colon or key)"},
      {R"({"event":"mark","t":1,"label":"\ud800"})", "invalid escape in a string"},
      {std::string("{\"t\":1\0}", 8), "invalid number"},
      {"", "expected an object"},
  };
  Recording rec = MakeRecording(2);
  size_t line3 = rec.lines[0].size() + rec.lines[1].size();
  for (const Case& k : cases) {
    std::vector<std::string> lines = rec.lines;
    lines[2] = k.line + "\n";
    // The byte is the line's first: simdjson's DOM keeps no positions.
    std::string want = "pgr line 3, byte " + std::to_string(line3) + ": " + k.reason;
    for (Compression c : kCodecs) {
      CAPTURE(k.line);
      CAPTURE(CompressionName(c));
      CHECK(ErrorOf(Compress(c, lines)) == want);
    }
  }
}

// Harmless: a flip that is not an error (a gzip header's mtime, a flag
// that only ends the stream early) never invents data: the items read are
// those written, or a prefix of them with `truncated` set.
TEST_CASE("a flipped byte in compressed data is a FormatError naming the byte, or harmless") {
  Recording rec = MakeRecording(2);
  for (Compression c : {Compression::kGzip, Compression::kZstd}) {
    std::string bytes = Compress(c, rec.lines);
    int errors = 0;
    for (size_t i : Positions(0, bytes.size())) {
      std::string broken = bytes;
      broken[i] = static_cast<char>(broken[i] ^ 0x55);
      CAPTURE(CompressionName(c));
      CAPTURE(i);
      try {
        ReadResult got = ReadAll(broken);
        CHECK(got.items.size() <= rec.items.size());
        if (got.items.size() < rec.items.size()) CHECK(got.truncated);
        for (size_t k = 0; k < got.items.size(); ++k) CHECK(got.items[k] == rec.items[k]);
      } catch (const FormatError& e) {
        ++errors;
        // A flip in the magic leaves bytes that are no recording at all.
        std::string what = e.what();
        CHECK((what.find("byte ") != std::string::npos ||
               what.starts_with("not a PerfMonger recording: it starts with")));
      }
    }
    CHECK(errors > 0);
  }
}

TEST_CASE("another version or format is named as such") {
  std::string header = EncodeHeaderLine(Header(kShape));
  std::string v3 = header;
  v3.replace(v3.find("\"version\":1"), 11, "\"version\":3");
  // The rest of a version-3 header may be anything.
  v3.replace(v3.find("\"collectors\":"), 13, "\"collectors\":7,\"x\":");
  CHECK(ErrorOf(v3).find("unsupported pgr version 3") != std::string::npos);
  CHECK(ErrorOf("{\"format\":\"other\",\"version\":1}\n").find("not a perfmonger recording") !=
        std::string::npos);
}

TEST_CASE("legacy busy100.pgr, plain and gzip, through the same entry point") {
  for (const char* name : {"busy100.pgr", "busy100.pgr.gz"}) {
    CAPTURE(name);
    ReadResult got = ReadAll(pm::test::ReadLegacyFile(name));
    CHECK(got.info.format == "perfmonger-gob");
    CHECK(got.samples == 4);
    CHECK(got.items.size() == 4);
    CHECK_FALSE(got.truncated);
  }
}

// Text is neither a pgr header nor a gob stream: said so, with its start.
// (Damage inside a gob stream is the legacy reader's: test_gob.cc.)
TEST_CASE("garbage that is not JSON is not a PerfMonger recording") {
  std::string text;
  for (int i = 0; i < 30; ++i) text += "hello world ";
  CHECK(ErrorOf(text) == "not a PerfMonger recording: it starts with \"hello world \", "
                         "neither a pgr header nor a PerfMonger 1.0 (gob) stream");
}

}  // TEST_SUITE
