// play --format openmetrics of a recording with 20,000 marks: every phase's
// perfmonger_phase_info series, contiguous, 1 from its mark to the next and
// 0 there. The export is linear in marks (openmetrics_phases.hh); the
// quadratic one it replaced took 45 s here, which the deadline below (forty
// times what it takes now, for a loaded machine) turns into a failure
// rather than timing anything.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"

namespace pm::test {
namespace {

constexpr int kMarks = 20'000;

// The header of a small v1 recording of a fake machine's CPU, then
// kMarks + 1 samples of it 10 ms apart (every CPU counter moving), a mark
// "m<i>" after sample i.
std::string ManyMarks(const TempDir& dir) {
  FakeProc fake(CountersAt(0));
  std::string small = dir / "small.pgr";
  RecordFake(fake, small, {CountersAt(0)},
             {"--format-version", "1", "--no-disk", "--no-net", "--no-mem"});
  std::string text = SplitLines(ReadFileBytes(small)).at(0) + "\n";
  const int64_t t0 = 1'700'000'000'000'000'000;
  for (int i = 0; i <= kMarks; ++i) {
    std::string t = std::to_string(t0 + int64_t{i} * 10'000'000);
    std::string mono = std::to_string(int64_t{1'000'000'000} + int64_t{i} * 10'000'000);
    std::string tick = std::to_string(1000 + i);
    std::string cpu = "[" + tick + ",0," + tick + ",1000,0,0,0,0,0,0]";
    text += "{\"t\":" + t + ",\"mono\":" + mono + ",\"cpu\":[" + cpu + "," + cpu + "," + cpu +
            "],\"proc\":[" + tick + ",1]}\n";
    if (i < kMarks)
      text += "{\"event\":\"mark\",\"t\":" + t + ",\"mono\":" + mono + ",\"label\":\"m" +
              std::to_string(i) + "\"}\n";
  }
  std::string file = dir / "marks.pgr";
  WriteFile(file, text);
  return file;
}

}  // namespace

TEST_SUITE("export") {
  TEST_CASE("openmetrics with 20,000 marks: every phase's series, contiguous and right") {
    TempDir dir;
    const std::string file = ManyMarks(dir);
    SpawnOptions options;
    options.args = {"play", "--format", "openmetrics", file};
    ExitResult r = Child(std::move(options)).Wait(After(std::chrono::seconds(40)));
    CAPTURE(r.err);
    REQUIRE(r.code == 0);
    std::vector<std::string> lines = SplitLines(r.out);
    REQUIRE(!lines.empty());
    CHECK(lines.back() == "# EOF");
    // The phase series in order of appearance: start, m0, m1, ...; each
    // series' lines together, each phase 1 at its samples and 0 at the
    // next mark. Phase m<i> begins at sample i and ends at sample i + 1.
    const std::string head = "perfmonger_phase_info{phase=\"";
    int phase = -1;  // -1: start
    std::vector<std::string> points;
    size_t series = 0;
    auto check_series = [&] {
      if (points.empty()) return;
      CAPTURE(phase);
      ++series;
      if (phase == -1 || phase == kMarks - 1) return;  // the ends: checked by count
      const int64_t begin_s = 1'700'000'000 , begin_ms = int64_t{phase} * 10;
      auto at = [&](int64_t ms) {
        std::string frac = std::to_string(1000 + (ms % 1000)).substr(1);
        return std::to_string(begin_s + ms / 1000) + "." + frac;
      };
      REQUIRE(points.size() == 2);
      CHECK(points[0] == "1 " + at(begin_ms));
      CHECK(points[1] == "0 " + at(begin_ms + 10));
    };
    for (const std::string& line : lines) {
      if (!line.starts_with(head)) continue;
      std::string label = line.substr(head.size(), line.find('"', head.size()) - head.size());
      int this_phase = label == "start" ? -1 : std::stoi(label.substr(1));
      if (this_phase != phase) {
        check_series();
        REQUIRE(this_phase == phase + 1);  // contiguous, in order
        phase = this_phase;
        points.clear();
      }
      CHECK(line.find("state=\"recording\"") != std::string::npos);
      points.push_back(line.substr(line.find("} ") + 2));
    }
    check_series();
    CHECK(series == kMarks + 1);
  }

  TEST_CASE("a window's missing mark among 20,000: the error lists the first 20") {
    TempDir dir;
    const std::string file = ManyMarks(dir);
    ExitResult r = Run({"summary", "--phase", "none", file});
    CHECK(r.code == 1);
    std::string list = "m0";
    for (int i = 1; i < 20; ++i) list += ", m" + std::to_string(i);
    CHECK(r.err.find("(its marks: " + list + ", ...)") != std::string::npos);
  }
}

}  // namespace pm::test
