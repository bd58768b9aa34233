// PerfMonger's own golden vectors: its recording busy100.pgr (Go gob, plain
// and gzipped) must give back, byte for byte, what PerfMonger's `play` and
// `summary` printed for it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "proto/codec.hh"
#include "playback/gob_reader.hh"
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
  CHECK_FALSE(reader.truncated());
  CHECK_FALSE(in->truncated());
  return samples;
}

std::string Played(const std::vector<pm::RawSample>& samples) {
  std::string out;
  for (size_t i = 1; i < samples.size(); ++i) {
    pm::AppendPlayJson(out, pm::ComputeRates(samples[i - 1], samples[i],
                                             samples.front().time_ns));
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

TEST_CASE("golden: summary text and JSON of busy100.pgr, byte for byte") {
  std::vector<pm::RawSample> samples = Decode(pm::test::ReadLegacyFile("busy100.pgr"));
  REQUIRE(samples.size() == 4);
  pm::SummaryInput in;
  in.title_file = "spec/data/busy100.pgr";  // the name PerfMonger was given
  in.first = &samples.front();
  in.last = &samples.back();
  CHECK(pm::SummaryText(in) == pm::test::ReadLegacyFile("busy100.pgr.summary"));
  CHECK(pm::SummaryJson(in) == pm::test::ReadLegacyFile("busy100.pgr.summary.json"));
}
