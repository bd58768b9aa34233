// summary's reading of a format v2 recording (SkimmedDeltas): the same
// figures as the full reading over pauses, phases and a change of shape;
// each run's first and last sample and every event returned, the rest
// validated by rebuilding; a corrupt difference line loses the span to
// the next keyframe with the full reading's warning; a file cut at any
// byte reads as the full reading reads it.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/delta_decoder.hh"
#include "playback/reading/recording_reader.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/pgr_v2_builder.hh"
#include "test/playback/skim_reads.hh"
#include "test/playback/summary_texts.hh"
#include "test/positions.hh"

using namespace pm;
using namespace pm::test;

namespace {


// The full reading's items a skimmed reading must return: every event,
// each run's first and last sample.
std::vector<std::string> Required(const Read& full) {
  std::vector<std::string> out;
  for (size_t i = 0; i < full.items.size(); ++i) {
    bool first = i == 0 || !full.is_sample[i - 1];
    bool last = i + 1 == full.items.size() || !full.is_sample[i + 1];
    if (!full.is_sample[i] || first || last) out.push_back(full.items[i]);
  }
  return out;
}

// `sub`'s items appear in `all`, in order.
bool InOrder(const std::vector<std::string>& sub, const std::vector<std::string>& all) {
  auto at = all.begin();
  for (const std::string& item : sub) {
    at = std::find(at, all.end(), item);
    if (at == all.end()) return false;
    ++at;
  }
  return true;
}

void CheckSkimAgrees(const std::string& bytes) {
  Read full = ReadAll(bytes, false);
  Read skim = ReadAll(bytes, true);
  CHECK(skim.error == full.error);
  CHECK(skim.samples == full.samples);
  CHECK(skim.truncated == full.truncated);
  CHECK(skim.warnings == full.warnings);
  CHECK(InOrder(skim.items, full.items));
  CHECK(InOrder(Required(full), skim.items));
  if (full.error == "no error") CHECK(Summaries(bytes, true) == Summaries(bytes, false));
}

}  // namespace

TEST_SUITE("skimmed v2 reading") {

TEST_CASE("v2: the figures of the full reading, few lines parsed") {
  for (uint64_t seed : {1, 2}) {
    TwoVersions rec = MakeRecording(seed);  // a pause, a mark, a core offline
    for (Compression c : {Compression::kPlain, Compression::kGzip, Compression::kZstd}) {
      std::string bytes = Compress(c, rec.v2);
      CheckSkimAgrees(bytes);
      Read full = ReadAll(bytes, false);
      Read skim = ReadAll(bytes, true);
      CHECK(full.items.size() == 293);
      // Runs' ends, the keyframes (every 64 samples, two at the offline
      // core's edges, one after the resume) and the 3 events.
      CHECK(skim.items.size() < 30);
      // v1 of the same samples skims to the same figures.
      CHECK(Summaries(bytes, true) == Summaries(Compress(c, rec.v1), true));
    }
  }
}

TEST_CASE("v2: a corrupt difference line loses the span as the full reading does") {
  TwoVersions rec = MakeRecording(5);
  Read v1 = ReadAll(Compress(Compression::kPlain, rec.v1), false);
  size_t bad = 20;  // inside the first keyframe span, in the middle of a run
  REQUIRE(DeltaDecoder::IsDelta(rec.v2[bad]));
  std::string line = rec.v2[bad];
  size_t digit = line.find_first_of("123456789", line.find("\"cpu\""));
  std::string corrupt[] = {
      line.substr(0, line.size() / 2) + "\n",           // cut in half
      "garbage\n",                                      // not a line
      line.substr(0, digit) + "x" + line.substr(digit + 1),  // a digit garbled
      line.substr(0, digit) + "1.5" + line.substr(digit + 1),  // a fraction
      std::string(line).replace(line.find("\"cpu\""), 5, "\"mem\""),  // a key garbled
  };
  for (const std::string& bad_line : corrupt) {
    CAPTURE(bad_line);
    std::vector<std::string> lines = rec.v2;
    lines[bad] = bad_line;
    std::string bytes = Compress(Compression::kGzip, lines);
    CheckSkimAgrees(bytes);
    Read skim = ReadAll(bytes, true);
    REQUIRE(skim.warnings.size() == 1);
    CHECK(skim.warnings[0].starts_with("lines " + std::to_string(bad + 1) + "-"));
    // The last good sample before it is returned, as the run's last.
    CHECK(std::find(skim.items.begin(), skim.items.end(), v1.items[bad - 2]) !=
          skim.items.end());
  }
}

// A small recording (a mark in a run, a shape change, a pause with a
// mark, a resume keyframe) cut after every byte of its compressed form
// (a spread of them under a sanitizer: test/positions.hh).
TEST_CASE("v2: cut at every byte, gzip and zstd, the skim reads as the full reading") {
  Shape shape;
  TwoVersions rec;
  rec.Header(shape);
  for (uint64_t k = 0; k < 14; ++k) {
    RawSample s = MakeSample(shape, k & ~uint64_t{1});  // all rows present
    s.time_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(k) * 10'000'000;
    s.mono_ns = s.time_ns - 1'600'000'000'000'000'000;
    Member(s, "cpu").row(0)[0] += k * 3;
    if (k == 2) rec.Event("mark", s.time_ns, "early");  // a difference line next
    if (k == 4 || k == 5) Member(s, "cpu").present[1] = 0;  // a shape change
    if (k == 8) rec.Event("pause", s.time_ns);
    if (k == 9) rec.Event("mark", s.time_ns, "late");
    if (k == 10) rec.Event("resume", s.time_ns);
    if (k == 8 || k == 9) continue;
    rec.Sample(s);
  }
  rec.Event("end", 1'800'000'000'000'000'000);
  for (Compression c : {Compression::kGzip, Compression::kZstd}) {
    std::string bytes = Compress(c, rec.v2);
    CAPTURE(bytes.size());
    for (size_t cut : Positions(0, bytes.size() + 1)) {
      CAPTURE(cut);
      CheckSkimAgrees(bytes.substr(0, cut));
    }
  }
}

// One corrupt byte under the lines (the decompressor fails at it): the
// skim returns the last sample read before the error, as the full reading
// did, then the same error; summary then spans what play printed.
TEST_CASE("v1 and v2: a corrupt byte in gzip or zstd, the skim reads to the same last sample") {
  Shape shape;
  TwoVersions rec;
  rec.Header(shape);
  for (uint64_t k = 0; k < 12; ++k) {
    RawSample s = MakeSample(shape, k & ~uint64_t{1});
    s.time_ns = 1'700'000'000'000'000'000 + static_cast<int64_t>(k) * 10'000'000;
    s.mono_ns = s.time_ns - 1'600'000'000'000'000'000;
    Member(s, "cpu").row(0)[0] += k * 3;
    if (k == 6) rec.Event("mark", s.time_ns, "half");
    rec.Sample(s);
  }
  rec.Event("end", 1'800'000'000'000'000'000);
  size_t errors = 0;
  for (const std::vector<std::string>* lines : {&rec.v1, &rec.v2})
    for (Compression c : {Compression::kGzip, Compression::kZstd}) {
      const std::string clean = Compress(c, *lines);
      for (size_t at : Positions(0, clean.size())) {
        CAPTURE(at);
        std::string bytes = clean;
        bytes[at] = static_cast<char>(bytes[at] ^ 0x20);
        Read full = ReadAll(bytes, false);
        if (full.error == "no error" || full.items.empty()) continue;
        ++errors;
        CheckSkimAgrees(bytes);
      }
    }
  CHECK(errors > 0);
}

}  // TEST_SUITE
