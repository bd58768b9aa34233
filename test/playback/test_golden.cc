// PerfMonger's own golden vectors: its recording busy100.pgr (Go gob, plain
// and gzipped) must give back, byte for byte, what PerfMonger's `play` (also
// with -p, -c, -p -c) and `summary` printed for it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "proto/codec.hh"
#include "playback/reading/gob_reader.hh"
#include "playback/outputs/play_style.hh"
#include "playback/outputs/play_json.hh"
#include "playback/reports/rates.hh"
#include "playback/outputs/summary.hh"
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

// No PerfMonger 1.0 binary makes new goldens here; its rule for an
// interval in which no tick passed is compat §4's: T = 0, every CPU share
// 0.00. Such a pair is a line, as PerfMonger prints it; the others stay
// its goldens' lines.
TEST_CASE("golden: a pair of busy100.pgr in which no tick passed is a line of zero shares") {
  const std::vector<std::string> golden = [] {
    std::vector<std::string> lines;
    std::string text = pm::test::ReadLegacyFile("busy100.pgr.played");
    for (size_t b = 0, e; (e = text.find('\n', b)) != std::string::npos; b = e + 1)
      lines.push_back(text.substr(b, e - b + 1));
    return lines;
  }();
  std::vector<pm::RawSample> samples = Decode(pm::test::ReadLegacyFile("busy100.pgr"));
  REQUIRE(samples.size() == 4);
  pm::RawSample again = samples[1];
  again.time_ns += 1'000'000;  // 1 ms later, not a counter moved
  samples.insert(samples.begin() + 2, again);
  std::string played = Played(samples);
  std::vector<std::string> lines;
  for (size_t b = 0, e; (e = played.find('\n', b)) != std::string::npos; b = e + 1)
    lines.push_back(played.substr(b, e - b + 1));
  REQUIRE(lines.size() == 4);
  CHECK(lines[0] == golden[0]);
  CHECK(lines[3] == golden[2]);
  const std::string zeros = R"({"usr":0.00,"nice":0.00,"sys":0.00,"idle":0.00,"iowait":0.00,)"
                            R"("hardirq":0.00,"softirq":0.00,"steal":0.00,"guest":0.00,)"
                            R"("guestnice":0.00})";
  CHECK(lines[1].find(R"("cpu":{"num_core":2,"all":)" + zeros + R"(,"cores":[)" + zeros + "," +
                      zeros + "]}") != std::string::npos);
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
