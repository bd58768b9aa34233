// summary's reading (RecordingReader::SkimSamples): which samples come
// back, that every line is still validated — a corrupt line refused with
// the error and line number of the full reading — and that summary's
// figures over a recording with pauses and phases are those of the full
// reading.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/line_reader.hh"
#include "playback/reading/recording_reader.hh"
#include "playback/reading/skimmed_lines.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/skim_reads.hh"
#include "test/playback/summary_texts.hh"

using namespace pm;
using namespace pm::test;

namespace {

const Shape kShape;

// Even samples share one shape; odd ones have rows null (pgr_builder.hh).
std::string Sample(uint64_t k) { return SampleLine(MakeSample(kShape, k)); }
std::string Event(const char* kind, uint64_t k, const char* label = "") {
  RawSample s = MakeSample(kShape, k);
  return EncodeEventLine(kind, s.time_ns, s.mono_ns, label);
}
std::string HeaderLine() { return EncodeHeaderLine(Header(kShape)); }

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line;
  return out;
}

// The full reading's items at `picks`.
std::vector<std::string> Pick(const Read& full, std::vector<size_t> picks) {
  std::vector<std::string> out;
  for (size_t i : picks) out.push_back(full.items.at(i));
  return out;
}

}  // namespace

TEST_SUITE("skimmed reading") {

TEST_CASE("each run's first and last sample, every event; all samples counted") {
  std::vector<std::string> lines = {HeaderLine()};
  for (uint64_t k : {0, 2, 4, 6}) lines.push_back(Sample(k));  // items 0-3
  lines.push_back(Event("pause", 6));                            // 4
  lines.push_back(Event("future-kind", 6));                      // (skipped)
  lines.push_back(Event("resume", 8));                           // 5
  for (uint64_t k : {8, 10}) lines.push_back(Sample(k));         // 6-7
  lines.push_back(Event("mark", 10, "b"));                       // 8
  for (uint64_t k : {12, 14, 16, 17, 18, 20}) lines.push_back(Sample(k));  // 9-14
  lines.push_back(Event("end", 20));                             // 15
  std::string bytes = Join(lines);
  Read full = ReadAll(bytes, false);
  Read skim = ReadAll(bytes, true);
  REQUIRE(full.items.size() == 16);
  // 17 has another shape: it is parsed, ends the skim, and its own shape
  // is learned (18 is skimmed against it; 20, like 16 again, is not).
  CHECK(skim.items == Pick(full, {0, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15}));
  CHECK(skim.samples == full.samples);
  CHECK(skim.samples == 12);
  CHECK_FALSE(skim.truncated);

  // Without a trailer the run's last sample is returned at the end; a cut
  // last line is left out and reported as before.
  std::string cut = Join({lines[0], lines[1], lines[2], lines[3], lines[4]}) + "{\"t\":1,";
  Read cut_full = ReadAll(cut, false);
  Read cut_skim = ReadAll(cut, true);
  CHECK(cut_skim.items == Pick(cut_full, {0, 3}));
  CHECK(cut_skim.samples == 4);
  CHECK(cut_skim.truncated);
  CHECK(cut_full.truncated);
}

// The lines of test_recording_reader.cc's corrupt-line table and a few
// garbles of a real sample line, each put in the middle of a run of
// samples (where only the skim looks at it), as the run's last line, and
// as the input's last line.
TEST_CASE("a corrupt line is refused as the full reading refuses it, same line") {
  std::string good = Sample(4);
  good.pop_back();  // the "\n"
  auto with = [&good](std::string_view after, std::string_view text, size_t skip = 0) {
    std::string line = good;
    size_t at = line.find(after);
    REQUIRE(at != std::string::npos);
    return line.replace(at + after.size(), skip, text);
  };
  auto renamed = [&good](std::string_view key, std::string_view to) {
    std::string line = good;
    size_t at = line.find(key);
    REQUIRE(at != std::string::npos);
    return line.replace(at, key.size(), to);
  };
  struct Case {
    std::string line;
  };
  const Case cases[] = {
      // test_recording_reader.cc's table: none has a sample's shape.
      {"garbage"},
      {R"({"t":1,"mono":2,})"},
      {R"({"t":-1x})"},
      {R"({"t":1,"cpu":[[1,2]]})"},
      {R"({"t":1,"disk":[[-1]]})"},
      {R"({"t":99999999999999999999})"},
      {"{\"t\":1,\"x\":\"\xff\"}"},
      {R"({"t":1,"cpu":null,"bogus":[1,]})"},
      {R"({"mono":1})"},
      {R"({"t":1} x)"},
      {R"({"event":"mark","t":1,"label":"\ud800"})"},
      {std::string("{\"t\":1\0}", 8)},
      {""},
      {"\x01\x02\x03"},
      {std::string(20, '\0')},
      // A sample line garbled.
      {good.substr(0, 40) + Sample(6).substr(0, Sample(6).size() - 1)},  // cut, spliced
      {with("]", ",")},                  // a comma too many
      {with("[[", "}", 1)},              // a bracket changed
      {with("\"mono\":", "x", 1)},       // a scalar starting with garbage
      {with("\"mono\":", "\"5\"", 0)},   // a string for a number
      {with("\"mem\":[", "\xc3", 0)},    // invalid UTF-8
      {good.substr(0, good.size() - 1)},  // its last byte lost
      {renamed("\"net\"", "\"mem\"")},    // a key garbled
      {renamed("\"net\"", "\"disk\"")},   // a member twice
      {with("\"mono\":9", "x", 1)},      // a digit garbled into a letter
      {with("\"disk\":[[", "-", 0)},     // a negative counter
      {with("\"mem\":[", "99999999999999999999", 0)},  // out of range
      {with("\"mem\":[", "0", 0)},       // a leading zero
      {with("\"mem\":[", "1.5,", 0)},    // a fraction
  };
  for (const Case& k : cases) {
    CAPTURE(k.line);
    // The learned shape is that of the first sample: the case must be
    // refused against a run of lines all like it.
    std::vector<std::string> lines = {HeaderLine(), Sample(0), Sample(2), k.line + "\n",
                                      Sample(4), Sample(6)};
    std::string middle = Join(lines);
    Read full = ReadAll(middle, false);
    REQUIRE(full.error.starts_with("pgr line 4, byte "));
    Read skim = ReadAll(middle, true);
    CHECK(skim.error == full.error);
    // Where the run ends, the line is parsed whatever it holds.
    lines.resize(4);
    lines.push_back(Event("mark", 4, "x"));
    CHECK(ReadAll(Join(lines), true).error == full.error);
    lines.resize(4);
    CHECK(ReadAll(Join(lines), true).error == full.error);
  }
}

TEST_CASE("summary with pauses and phases: the same figures as the full reading") {
  std::vector<std::string> lines = {HeaderLine()};
  uint64_t k = 0;
  auto run = [&](int samples) {
    for (int i = 0; i < samples; ++i, k += 2) lines.push_back(Sample(k));
  };
  run(6);
  lines.push_back(Event("pause", k - 2));
  lines.push_back(Event("resume", k + 4));
  k += 6;
  run(5);
  lines.push_back(Event("mark", k - 2, "load"));
  run(4);
  lines.push_back(Sample(k + 1));  // null rows: a sample parsed mid-run
  k += 4;
  run(7);
  lines.push_back(Event("pause", k - 2));
  lines.push_back(Event("mark", k + 1, "while paused"));
  lines.push_back(Event("resume", k + 2));
  k += 4;
  run(3);
  lines.push_back(Event("mark", k - 2, "tail"));
  run(1);
  std::string with_end = Join(lines) + Event("pause", k - 2) + Event("end", k + 10);
  std::string unclosed = Join(lines);
  for (const std::string& bytes : {with_end, unclosed}) {
    std::string full = Summaries(bytes, false);
    CHECK(full.find("Paused: ") != std::string::npos);
    CHECK(full.find("phase 'while paused'") != std::string::npos);
    CHECK(Summaries(bytes, true) == full);
  }
}

// SkimmedLines alone, on lines it never parses: a long sample (a big
// machine's) is skimmed as a short one; one of another length is not.
TEST_CASE("SkimmedLines: long lines, and a change of shape ends the skim") {
  auto line_of = [](size_t values, int v) {
    std::string line = "{\"t\":" + std::to_string(v) + ",\"a\":[7";
    while (--values > 0) line += "," + std::to_string(v);
    return line + "]}";
  };
  std::vector<std::string> lines = {line_of(100'000, 1), line_of(100'000, 2),
                                    line_of(100'000, 3), line_of(99'999, 4),
                                    line_of(99'999, 5), R"({"event":"end","t":6})"};
  std::string bytes;
  for (const std::string& line : lines) bytes += line + "\n";
  MemoryInputStream in(bytes);
  LineReader reader(in);
  SkimmedLines skimmed(reader);
  std::vector<uint64_t> numbers;
  std::vector<std::string> got;
  while (std::optional<std::string_view> line = skimmed.Next()) {
    got.emplace_back(*line);
    numbers.push_back(skimmed.line_number());
  }
  // 2 is skimmed; 3 is the run's last before a line of another shape;
  // 4 starts the walk again, 5 ends its run at the event.
  CHECK(got == std::vector<std::string>{lines[0], lines[2], lines[3], lines[4], lines[5]});
  CHECK(numbers == std::vector<uint64_t>{1, 3, 4, 5, 6});
  CHECK(skimmed.skipped() == 1);
}

}  // TEST_SUITE
