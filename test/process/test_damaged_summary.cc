// One corrupt byte in a gzip or zstd recording: play prints every sample up
// to the damage and exits 2; summary summarizes the same samples, warns
// once naming the damage, and exits 2 (README's promise for damaged files).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "test/process/fake_proc.hh"

namespace pm::test {
namespace {

// play's last "elapsed_time" (-1 without a line): where the readable part
// of the recording ends.
double LastElapsed(const std::string& play_out) {
  std::vector<std::string> lines = SplitLines(play_out);
  if (lines.empty()) return -1;
  return double(Json(lines.back()).root()["elapsed_time"]);
}

}  // namespace

TEST_SUITE("damaged recordings") {
  TEST_CASE("summary of gzip or zstd with one corrupt byte: what was readable, exit 2") {
    FakeProc fake(CountersAt(0));
    std::vector<FakeCounters> counters;
    for (uint64_t k = 0; k < 60; ++k) counters.push_back(CountersAt(k));
    TempDir dir;
    for (const char* name : {"r.pgr.gz", "r.pgr.zst"}) {
      CAPTURE(name);
      const std::string clean = dir / name;
      RecordFake(fake, clean, counters);
      const std::string bytes = ReadFileBytes(clean);
      size_t summarized = 0;  // positions where some samples were readable
      for (int percent : {50, 60, 70, 80, 90, 95}) {
        CAPTURE(percent);
        std::string damaged = bytes;
        size_t at = damaged.size() * static_cast<size_t>(percent) / 100;
        damaged[at] = static_cast<char>(damaged[at] ^ 0x55);
        const std::string file = dir / ("damaged-" + std::string(name));
        WriteFile(file, damaged);
        ExitResult play = Run({"play", file});
        ExitResult summary = Run({"summary", file});
        CAPTURE(play.err);
        CAPTURE(summary.err);
        CAPTURE(summary.out);
        CHECK(summary.code == play.code);
        // A flip in a zstd frame's last bytes may read as a cut: exit 0, a
        // warning, for both; the checks below are for the damage.
        // A flip may also garble lines that the reader skips, warned (exit 2).
        size_t error_at = play.err.find("error: ");
        if (play.code != 2 || error_at == std::string::npos) continue;
        const std::string error = play.err.substr(error_at + 7);
        CHECK(summary.err.find(error.substr(0, error.size() - 1)) != std::string::npos);
        double end = LastElapsed(play.out);
        if (end < 0) {  // no pair: the header damaged (the same error), or one sample read
          if (summary.err.find("has a single sample") == std::string::npos)
            CHECK(summary.out.empty());
          continue;
        }
        ++summarized;
        CHECK(summary.err.find("warning: " + file + ": corrupt") != std::string::npos);
        // What play printed is summarized: from the first sample to the last
        // one read (play may leave out a last one of zero width).
        CHECK(summary.out.find("== performance summary of '" + file + "' ==") == 0);
        size_t duration = summary.out.find("\nDuration: ");
        REQUIRE(duration != std::string::npos);
        CHECK(std::stod(summary.out.substr(duration + 11)) >= end);
        ExitResult json = Run({"summary", "--json", file});
        CHECK(json.code == 2);
        CHECK(Json(json.out).Has("exectime"));
      }
      CHECK(summarized >= 2);
    }
  }
}

}  // namespace pm::test
