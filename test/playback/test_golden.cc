// PerfMonger's own golden vectors: its recording busy100.pgr (Go gob, plain
// and gzipped) must give back, byte for byte, what PerfMonger's `play` (also
// with -p, -c, -p -c) and `summary` printed for it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "proto/codec.hh"
#include "playback/gob_reader.hh"
#include "playback/play_style.hh"
#include "playback/play_json.hh"
#include "playback/rates.hh"
#include "playback/summary.hh"
#include "test/playback/legacy_data.hh"

namespace {

std::vector<pm::RawSample> Decode(const std::string& bytes) {
  pm::MemoryInputStream file(bytes);
  auto in = pm::MakeDecompressor(file);
  pm::LegacyReader reader(*in);
  std::vector<pm::RawSample> samples;
  pm::RawSample s;
  while (reader.Next(s)) samples.push_back(s);
  CHECK(reader.info().legacy());  // what play, summary and plot are told
  CHECK_FALSE(reader.truncated());
  CHECK_FALSE(in->truncated());
  return samples;
}

// The play lines, each styled as `play` styles them when a style is asked.
std::string Played(const std::vector<pm::RawSample>& samples,
                   pm::PlayStyle style = {}) {
  std::string out;
  std::string line;
  for (size_t i = 1; i < samples.size(); ++i) {
    line.clear();
    pm::ReportOptions options;
    options.legacy = true;
    pm::AppendPlayJson(line, pm::Pair(samples[i - 1], samples[i], pm::TimeOrigin::Of(samples.front()),
                                      options));
    if (style.pretty || style.color) pm::AppendStyledPlayJson(out, line, style);
    else out.append(line);
    out.push_back('\n');
  }
  return out;
}

}  // namespace

TEST_CASE("golden: play of busy100.pgr and busy100.pgr.gz, byte for byte") {
  const std::string expected = pm::test::ReadLegacyFile("busy100.pgr.played");
  for (const char* name : {"busy100.pgr", "busy100.pgr.gz"}) {
    CAPTURE(name);
    std::vector<pm::RawSample> samples = Decode(pm::test::ReadLegacyFile(name));
    REQUIRE(samples.size() == 4);
    CHECK(Played(samples) == expected);
  }
}

TEST_CASE("golden: play -p, -c and -p -c of busy100.pgr, byte for byte") {
  std::vector<pm::RawSample> samples = Decode(pm::test::ReadLegacyFile("busy100.pgr"));
  REQUIRE(samples.size() == 4);
  CHECK(Played(samples, {.pretty = true, .color = false}) ==
        pm::test::ReadLegacyFile("busy100.pgr.played.pretty"));
  CHECK(Played(samples, {.pretty = false, .color = true}) ==
        pm::test::ReadLegacyFile("busy100.pgr.played.color"));
  CHECK(Played(samples, {.pretty = true, .color = true}) ==
        pm::test::ReadLegacyFile("busy100.pgr.played.pretty-color"));
}

TEST_CASE("golden: summary text and JSON of busy100.pgr, byte for byte") {
  std::vector<pm::RawSample> samples = Decode(pm::test::ReadLegacyFile("busy100.pgr"));
  REQUIRE(samples.size() == 4);
  pm::SummaryInput in;
  in.title_file = "spec/data/busy100.pgr";  // the name PerfMonger was given
  in.first = &samples.front();
  in.last = &samples.back();
  in.legacy = true;
  CHECK(pm::SummaryText(in) == pm::test::ReadLegacyFile("busy100.pgr.summary"));
  CHECK(pm::SummaryJson(in) == pm::test::ReadLegacyFile("busy100.pgr.summary.json"));
}
