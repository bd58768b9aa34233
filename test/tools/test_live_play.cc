// `live`'s reading side, fed the lines a recorder writes (built here from
// the collectors over a fake /proc tree) one write at a time.
#include <doctest/doctest.h>
#include <fcntl.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "common/io.hh"
#include "daemon/collect/collector_set.hh"
#include "playback/outputs/play_json.hh"
#include "playback/reports/rates.hh"
#include "playback/reading/recording_reader.hh"
#include "proto/pgr_format.hh"
#include "playback/outputs/play_style.hh"
#include "tools/live/live_play.hh"

namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kT0 = 1'700'000'000 * kSecond;

// The lines a recorder writes, with the counters of test/data/proc-small.
class Lines {
 public:
  Lines() {
    const char* data = std::getenv("PM_TESTDATA");
    REQUIRE(data != nullptr);
    pm::UniqueFd root = pm::OpenAt(AT_FDCWD, std::string(data) + "/proc-small",
                                   O_PATH | O_DIRECTORY);
    set_.emplace(root.Get(), pm::CollectorOptions());
  }
  std::string Header() {
    pm::RecordingHeader h;
    h.start_ns = kT0;
    h.interval_ns = kSecond;
    h.num_core = set_->num_core();
    h.collectors_json = set_->DescribeJson();
    return pm::EncodeHeaderLine(h);
  }
  std::string Sample(int64_t seconds) {
    std::string line;
    pm::BeginSampleLine(line, kT0 + seconds * kSecond, seconds * kSecond);
    set_->AppendSample(line);
    pm::EndLine(line);
    return line;
  }
  std::string Event(const char* kind, int64_t seconds) {
    return pm::EncodeEventLine(kind, kT0 + seconds * kSecond, seconds * kSecond);
  }

 private:
  std::optional<pm::CollectorSet> set_;
};

// What each push printed.
std::vector<std::string> PushEach(pm::LivePlay& play, const std::vector<std::string>& writes) {
  std::vector<std::string> outs;
  for (const std::string& w : writes) {
    std::string out;
    play.Push(w, out);
    outs.push_back(out);
  }
  return outs;
}

// `play`'s reading of the whole recording at once: consecutive samples.
std::string PlayedWhole(const std::string& text) {
  pm::MemoryInputStream in(text);
  pm::RecordingReader reader(in);
  pm::RawSample prev, cur;
  pm::RecordingEvent event;
  std::string out;
  bool have_prev = false;
  pm::TimeOrigin origin;
  while (reader.Next(cur, event) == pm::RecordingReader::Item::kSample) {
    if (!have_prev) origin = pm::TimeOrigin::Of(cur);  // play's: the first sample
    if (have_prev) {
      pm::ReportOptions options;  // as play's: what the header declared
      options.recorded = &reader.info().recorded;
      pm::AppendPlayJson(out, pm::Pair(prev, cur, origin, options));
      out.push_back('\n');
    }
    prev = cur;
    have_prev = true;
  }
  return out;
}

}  // namespace

TEST_CASE("live prints one play line per sample, from the second sample on") {
  Lines r;
  pm::LivePlay play(false, false);
  std::vector<std::string> writes = {r.Header(), r.Sample(0), r.Sample(1), r.Sample(2)};
  std::vector<std::string> outs = PushEach(play, writes);
  CHECK(outs[0].empty());
  CHECK(outs[1].empty());
  REQUIRE(!outs[2].empty());
  CHECK(outs[2].find("\"elapsed_time\":1.000,") != std::string::npos);
  CHECK(outs[3].find("\"elapsed_time\":2.000,") != std::string::npos);
  for (size_t i = 2; i < 4; ++i) {
    CHECK(outs[i].back() == '\n');
    CHECK(outs[i].find('\n') == outs[i].size() - 1);  // one line each
  }
  std::string whole;
  for (const std::string& w : writes) whole += w;
  CHECK(outs[2] + outs[3] == PlayedWhole(whole));
}

TEST_CASE("lines arriving together are read together") {
  Lines r;
  pm::LivePlay play(false, false);
  std::string out;
  play.Push(r.Header() + r.Sample(0), out);
  CHECK(out.empty());
  play.Push(r.Sample(1) + r.Sample(2), out);
  CHECK(std::count(out.begin(), out.end(), '\n') == 2);
}

TEST_CASE("no live line spans a pause") {
  Lines r;
  pm::LivePlay play(false, false);
  std::vector<std::string> outs =
      PushEach(play, {r.Header(), r.Sample(0), r.Sample(1), r.Event("pause", 1),
                      r.Event("resume", 5), r.Sample(5), r.Sample(6),
                      pm::EncodeEndLine({.t_ns = kT0 + 6 * kSecond, .mono_ns = 0,
                                         .reason = "SIGINT", .samples = 4,
                                         .missed_ticks = 0})});
  CHECK(!outs[2].empty());
  CHECK(outs[5].empty());  // the first sample after the resume starts anew
  CHECK(outs[6].find("\"elapsed_time\":6.000,") != std::string::npos);
  CHECK(outs[7].empty());
}

TEST_CASE("--pretty and --color style live lines as play styles them") {
  Lines r;
  pm::LivePlay compact(false, false);
  pm::LivePlay styled(true, true);
  std::vector<std::string> writes = {r.Header(), r.Sample(0), r.Sample(1)};
  std::string plain = PushEach(compact, writes)[2];
  std::string expected;
  pm::AppendStyledPlayJson(expected, plain.substr(0, plain.size() - 1), {true, true});
  CHECK(PushEach(styled, writes)[2] == expected + "\n");
}
