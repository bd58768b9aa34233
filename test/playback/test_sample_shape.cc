// The native reader's shape fast path (playback/reading/sample_shape.hh): a sample
// line of the shape of the line before is read from the walk's values,
// not parsed. Whatever the shapes do from line to line, each sample must
// read exactly as the full parse of its line alone, and each corrupt line
// must fail as that parse fails.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/native_reader.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/pgr_v2_builder.hh"
#include "test/playback/damage.hh"

using namespace pm;
using namespace pm::test;

namespace {

using Item = RecordingReader::Item;

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line;
  return out;
}

// What the reader gives for `text`, a Dump per item, read as play reads:
// into two samples in turn.
// A damaged span ends the items with "error: " and what it reported.
std::vector<std::string> Items(const std::string& text) {
  MemoryInputStream in(text);
  NativeReader reader(in);
  RawSample samples[2];
  RecordingEvent e;
  std::vector<std::string> out;
  for (size_t k = 0;; ++k) {
    Item item = reader.Next(samples[k % 2], e);
    if (item == Item::kEnd) break;
    out.push_back(item == Item::kSample ? Dump(samples[k % 2]) : Dump(e));
  }
  if (!reader.warnings().empty()) out.push_back("error: " + FirstDamage(reader.warnings()));
  return out;
}

// Each line on its own after the header: a full parse, the first sample
// of a reader being never followed.
std::vector<std::string> EachAlone(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (size_t i = 1; i < lines.size(); ++i)
    for (std::string& item : Items(lines[0] + lines[i])) out.push_back(std::move(item));
  return out;
}

// Counters that grow by 0 to 10^9 (so their widths change), reset now and
// then, come near the top of 64 bits; rows that go null and come back;
// marks; lines with a member this reader does not know.
std::vector<std::string> Wander(TwoVersions& rec, uint64_t seed, size_t samples) {
  std::mt19937_64 rng(seed);
  Shape shape;
  rec.Header(shape);
  RawSample s = MakeSample(shape, 0);
  auto step = [&](auto& counters) {
    for (auto& c : counters) {
      uint64_t r = rng() % 100;
      if (r < 2) c = rng() % 10;                        // a reset
      else if (r < 3) c = UINT64_MAX - rng() % 1000;    // near the top
      else c += rng() % (uint64_t{1} << (rng() % 31));  // 0 to ~10^9
    }
  };
  for (size_t k = 1; k <= samples; ++k) {
    s.time_ns += 1'000'000 + static_cast<int64_t>(rng() % 1000);
    s.mono_ns += 1'000'000;
    for (MemberRows& m : s.members) step(m.values);
    auto flip = [&](const char* key, size_t row) {
      if (rng() % 10 == 0) Member(s, key).present[row] ^= 1;
    };
    flip("cpu", 2);  // core 1
    flip("disk", 1);
    flip("intr", 1);
    if (rng() % 25 == 0) rec.Event("mark", s.time_ns, "m" + std::to_string(k));
    if (rng() % 15 != 0) {
      rec.Sample(s);
      continue;
    }
    std::string line = SampleLine(s);
    line.insert(line.size() - 2, R"(,"extra":[7,{"n":8}])");
    rec.v1.push_back(line);
    rec.v2.emplace_back(rec.enc.Encode(line, s.mono_ns));
  }
  return rec.v1;
}

// The error of reading `text`, or "".
std::string ErrorOf(const std::string& text) {
  try {
    std::vector<std::string> items = Items(text);
    if (!items.empty() && items.back().starts_with("error: ")) return items.back().substr(7);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "";
}

// "pgr line L, byte B: WHY" without the place.
std::string Why(const std::string& error) {
  size_t colon = error.find(": ");
  return colon == std::string::npos ? error : error.substr(colon + 2);
}

}  // namespace

TEST_SUITE("sample shape") {

TEST_CASE("every sample reads as the full parse of its line alone, v1 and v2") {
  for (uint64_t seed : {1, 2, 3, 4}) {
    TwoVersions rec;
    std::vector<std::string> v1 = Wander(rec, seed, 400);
    std::vector<std::string> expected = EachAlone(v1);
    REQUIRE(expected.size() == v1.size() - 1);
    CHECK(Items(Join(v1)) == expected);
    CHECK(Items(Join(rec.v2)) == expected);
  }
}

TEST_CASE("a column this reader does not know is dropped on every line") {
  std::string text =
      R"({"format":"perfmonger-pgr","version":1,"collectors":{"mem":{"fields":["MemFree","Bogus","MemTotal"]}}})"
      "\n";
  for (int k = 1; k <= 4; ++k) {
    std::string v = std::to_string(k);
    text += R"({"t":)" + v + R"(,"mem":[)" + v + "0," + v + "1," + v + "2]}\n";
  }
  MemoryInputStream in(text);
  NativeReader reader(in);
  RawSample s;
  RecordingEvent e;
  for (uint64_t k = 1; k <= 4; ++k) {
    REQUIRE(reader.Next(s, e) == Item::kSample);
    CHECK(s.time_ns == static_cast<int64_t>(k));
    Values mem = Row(s, "mem", "");
    CHECK(mem[0] == k * 10 + 2);  // MemTotal
    CHECK(mem[1] == k * 10);      // MemFree
    CHECK(mem[2] == 0);
  }
}

TEST_CASE("a corrupt line after lines of its shape fails as its full parse") {
  Shape shape;
  std::vector<std::string> lines = {EncodeHeaderLine(Header(shape))};
  RawSample s = MakeSample(shape, 0);  // every row present: one shape
  for (int k = 0; k < 4; ++k) {
    for (uint64_t& c : Member(s, "cpu").row(0)) c += 11;
    s.time_ns += 1'000'000;
    lines.push_back(SampleLine(s));
  }
  const std::string last = lines[4];
  const size_t digit = last.find(",\"cpu\":[[") + 9;  // the first cpu counter
  const std::vector<std::string> corrupt = {
      last.substr(0, digit) + "x" + last.substr(digit + 1),
      last.substr(0, digit) + "-" + last.substr(digit),
      last.substr(0, digit) + "0" + last.substr(digit),
      last.substr(0, digit) + "18446744073709551616" + last.substr(last.find(',', digit)),
      last.substr(0, last.find(',', digit)) + ".5" + last.substr(last.find(',', digit)),
      last.substr(0, last.find(',', digit)) + "e3" + last.substr(last.find(',', digit)),
      R"({"t":9223372036854775808)" + last.substr(last.find(",\"mono\"")),
      R"({"t":1,"mono":9223372036854775808)" + last.substr(last.find(",\"cpu\"")),
  };
  for (const std::string& bad : corrupt) {
    CAPTURE(bad);
    std::string alone = ErrorOf(lines[0] + bad);
    REQUIRE(!alone.empty());
    lines[4] = bad;
    std::string followed = ErrorOf(Join(lines));
    CHECK(followed.starts_with("pgr line 5, "));
    CHECK(Why(followed) == Why(alone));
  }
}

}  // TEST_SUITE
