// Format v2 through the whole reader: a recording encoded as differences
// reads exactly as the v1 recording of the same samples (resets, rows
// going offline, a pause, marks), and a corrupt line costs only the span
// up to the next keyframe, with a warning naming it.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/delta_decoder.hh"
#include "playback/reading/recording_reader.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/pgr_v2_builder.hh"

using namespace pm;
using namespace pm::test;

namespace {

using Item = RecordingReader::Item;

struct Read {
  std::vector<std::string> items;  // Dump of each sample, kind of each event
  std::vector<std::string> warnings;
};

Read ReadAll(const std::vector<std::string>& lines, Compression c) {
  std::string bytes = Compress(c, lines);
  MemoryInputStream in(bytes);
  RecordingReader reader(in);
  RawSample s;
  RecordingEvent e;
  Read out;
  for (Item item; (item = reader.Next(s, e)) != Item::kEnd;)
    out.items.push_back(item == Item::kSample ? Dump(s) : e.kind + " " + e.label);
  out.warnings.assign(reader.warnings().begin(), reader.warnings().end());
  return out;
}

}  // namespace

TEST_CASE("v2 reads exactly as the v1 recording of the same samples") {
  for (uint64_t seed : {1, 2, 3}) {
    TwoVersions rec = MakeRecording(seed);
    size_t deltas = 0;
    for (const std::string& line : rec.v2) deltas += DeltaDecoder::IsDelta(line);
    CHECK(deltas > 250);
    for (Compression c : {Compression::kPlain, Compression::kGzip, Compression::kZstd}) {
      Read v1 = ReadAll(rec.v1, c);
      Read v2 = ReadAll(rec.v2, c);
      REQUIRE(v1.items.size() == 293);  // 290 samples, 3 events
      CHECK(v2.items == v1.items);
      CHECK(v2.warnings.empty());
    }
  }
}

TEST_CASE("a keyframe at the first sample, every 64, at a row change, after resume") {
  TwoVersions rec = MakeRecording(4);
  std::vector<size_t> keys = rec.keyframe_lines;
  REQUIRE(keys.size() >= 5);
  CHECK(keys[0] == 1);  // the line after the header
  for (size_t i = 1; i < keys.size(); ++i) CHECK(keys[i] - keys[i - 1] <= 64 + 3);
  auto has_key_at = [&](size_t line) {
    return std::find(keys.begin(), keys.end(), line) != keys.end();
  };
  CHECK(has_key_at(1 + 100));  // core 1 went offline: a new shape
  CHECK(has_key_at(1 + 110));  // and came back
  size_t resume = 1 + 150 + 3;  // header, 150 samples, pause, mark, resume
  CHECK(rec.v2[resume - 1].find("\"resume\"") != std::string::npos);
  CHECK(has_key_at(resume));
}

TEST_CASE("a corrupt v2 line loses only the span to the next keyframe") {
  TwoVersions rec = MakeRecording(5);
  Read v1 = ReadAll(rec.v1, Compression::kPlain);
  // A difference line cut in half, well inside the first keyframe span.
  size_t bad = 20;
  REQUIRE(DeltaDecoder::IsDelta(rec.v2[bad]));
  rec.v2[bad].resize(rec.v2[bad].size() / 2);
  rec.v2[bad].push_back('\n');
  size_t next_key = *std::upper_bound(rec.keyframe_lines.begin(),
                                      rec.keyframe_lines.end(), bad);
  Read v2 = ReadAll(rec.v2, Compression::kGzip);
  // Items are lines minus the header: samples before `bad` and from the
  // keyframe on are intact, those between are gone.
  std::vector<std::string> want(v1.items.begin(), v1.items.begin() + (bad - 1));
  want.insert(want.end(), v1.items.begin() + (next_key - 1), v1.items.end());
  CHECK(v2.items == want);
  REQUIRE(v2.warnings.size() == 1);
  CHECK(v2.warnings[0].starts_with("lines " + std::to_string(bad + 1) + "-" +
                                   std::to_string(next_key) + " lost ("));
  CHECK(v2.warnings[0].ends_with("resumed at the keyframe on line " +
                                 std::to_string(next_key + 1)));
}

TEST_CASE("a corrupt line in the last span is reported; v1 loses that line alone") {
  TwoVersions rec = MakeRecording(6);
  size_t bad = rec.v2.size() - 3;
  REQUIRE(DeltaDecoder::IsDelta(rec.v2[bad]));
  rec.v2[bad] = "garbage\n";
  Read v2 = ReadAll(rec.v2, Compression::kPlain);
  REQUIRE(v2.warnings.size() == 1);
  CHECK(v2.warnings[0].ends_with("no keyframe after them"));
  CHECK(v2.items.size() == ReadAll(rec.v1, Compression::kPlain).items.size() - 3);

  // v1 lines stand alone: the read resumes at the line after.
  std::vector<std::string> want = ReadAll(rec.v1, Compression::kPlain).items;
  want.erase(want.begin() + static_cast<long>(bad) - 1);  // items start at line 2
  rec.v1[bad] = "garbage\n";
  for (Compression c : {Compression::kPlain, Compression::kGzip, Compression::kZstd}) {
    Read v1 = ReadAll(rec.v1, c);
    CHECK(v1.items == want);
    REQUIRE(v1.warnings.size() == 1);
    std::string line = std::to_string(bad + 1);
    CHECK(v1.warnings[0].starts_with("line " + line + " lost (pgr line " + line + ", byte "));
    CHECK(v1.warnings[0].find("), between ") != std::string::npos);
    CHECK(v1.warnings[0].ends_with("; resumed at line " + std::to_string(bad + 2)));
  }
}
