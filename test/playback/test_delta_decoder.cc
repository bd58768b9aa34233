#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "common/error.hh"
#include "proto/json.hh"
#include "playback/reading/delta_decoder.hh"
#include "playback/reading/reader_baseline.hh"
#include "proto/pgr_delta.hh"

namespace {

// A sample line as the recorder writes one: t, mono, a table whose rows
// may be null, a flat row.
struct FakeSample {
  int64_t t = 1'700'000'000'000'000'000;
  int64_t mono = 5'000'000'000;
  std::vector<std::vector<uint64_t>> rows = std::vector<std::vector<uint64_t>>(
      3, std::vector<uint64_t>(4, 1000));  // empty row: null
  std::vector<uint64_t> flat = std::vector<uint64_t>(6, 1'000'000);

  std::string Line() const {
    std::string out = "{\"t\":";
    pm::AppendInt(out, t);
    out += ",\"mono\":";
    pm::AppendInt(out, mono);
    out += ",\"disk\":[";
    for (size_t r = 0; r < rows.size(); ++r) {
      if (r) out += ',';
      if (rows[r].empty()) {
        out += "null";
        continue;
      }
      out += '[';
      for (size_t i = 0; i < rows[r].size(); ++i) {
        if (i) out += ',';
        pm::AppendUint(out, rows[r][i]);
      }
      out += ']';
    }
    out += "],\"mem\":[";
    for (size_t i = 0; i < flat.size(); ++i) {
      if (i) out += ',';
      pm::AppendUint(out, flat[i]);
    }
    out += "]}\n";
    return out;
  }
};

// Advances every counter; now and then one resets (wraps to a small
// value or to near 2^64), a row vanishes or comes back.
void Step(FakeSample& s, std::mt19937_64& rng) {
  s.t += 100'000'000 + static_cast<int64_t>(rng() % 1000);
  s.mono += 100'000'000 + static_cast<int64_t>(rng() % 1000);
  for (auto& row : s.rows) {
    if (rng() % 50 == 0) {
      row = row.empty() ? std::vector<uint64_t>(4, rng() % 1000) : std::vector<uint64_t>{};
      continue;
    }
    for (uint64_t& v : row) {
      uint64_t r = rng() % 100;
      v = r == 0 ? rng() % 10 : r == 1 ? UINT64_MAX - rng() % 5 : v + rng() % 5000;
    }
  }
  for (uint64_t& v : s.flat) v = rng() % 3 == 0 ? v - rng() % 200 : v + rng() % 200;
}

// Past the prefix and the "t" key: what a damage may hit.
constexpr size_t kDamageFrom = 12;

}  // namespace

TEST_CASE("v2 round trip: random counters with resets, rows vanishing, pauses") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    FakeSample s;
    pm::DeltaEncoder enc;
    pm::DeltaDecoder dec;
    size_t deltas = 0, since_keyframe = 0;
    for (int i = 0; i < 500; ++i) {
      Step(s, rng);
      if (rng() % 40 == 0) {  // a pause: events, then a keyframe
        CHECK(dec.Decode("{\"event\":\"pause\",\"t\":1,\"mono\":2}\n") ==
              "{\"event\":\"pause\",\"t\":1,\"mono\":2}\n");
        enc.ForceKeyframe();
      }
      std::string v1 = s.Line();
      std::string written(enc.Encode(v1, s.mono));
      bool is_delta = pm::DeltaDecoder::IsDelta(written);
      since_keyframe = is_delta ? since_keyframe + 1 : 0;
      CHECK(since_keyframe < pm::DeltaEncoder::kKeyframeEvery);
      deltas += is_delta;
      REQUIRE(dec.Decode(written) == v1);
    }
    CHECK(deltas > 300);  // most lines are differences
  }
}

TEST_CASE("a damaged difference line costs the lines up to the next keyframe, no more") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    FakeSample s;
    pm::DeltaEncoder enc;
    pm::DeltaDecoder dec;
    bool lost = false;
    size_t damaged = 0;
    for (int i = 0; i < 500; ++i) {
      Step(s, rng);
      std::string v1 = s.Line();
      std::string written(enc.Encode(v1, s.mono));
      if (!pm::DeltaDecoder::IsDelta(written)) {
        lost = false;  // a keyframe: exact again
        REQUIRE(dec.Decode(written) == v1);
      } else if (!lost && rng() % 25 == 0) {
        // Cut, or a digit turned into a letter: the shape no longer fits.
        size_t at = kDamageFrom + rng() % (written.size() - kDamageFrom);
        size_t digit = written.find_first_of("0123456789", at);
        if (rng() % 2 || digit == std::string::npos) written.resize(at);
        else written[digit] = 'x';
        CHECK_THROWS_AS(dec.Decode(written), pm::FormatError);
        lost = true;
        ++damaged;
      } else if (lost) {
        CHECK_THROWS_AS(dec.Decode(written), pm::FormatError);
      } else {
        REQUIRE(dec.Decode(written) == v1);
      }
    }
    CHECK(damaged > 2);
  }
}

TEST_CASE("integers that change length, in any place, read back exactly") {
  pm::DeltaEncoder enc;
  pm::DeltaDecoder dec;
  const std::vector<uint64_t> values = {0, 9, 10, 99999999, 100000000, 1234567890123,
                                        UINT64_MAX, 5};
  std::mt19937_64 rng(3);
  for (int i = 0; i < 2000; ++i) {
    std::string line = "{\"t\":" + std::to_string(i) + ",\"mono\":7,\"m\":[";
    for (int k = 0; k < 5; ++k) line += (k ? "," : "") + std::to_string(values[rng() % 8]);
    line += "],\"z\":" + std::to_string(values[rng() % 8]) + "}\n";
    std::string written(enc.Encode(line, i));
    REQUIRE(dec.Decode(written) == line);
  }
  CHECK(enc.keyframes() < 2000 / 60);
}

TEST_CASE("a difference line that does not fit its baseline is refused") {
  pm::DeltaDecoder dec;
  const std::string keyframe = "{\"t\":1,\"mono\":1,\"m\":[1,2]}\n";
  CHECK_THROWS_AS(dec.Decode("{\"d\":1,\"t\":1,\"mono\":1}\n"), pm::FormatError);
  for (std::string bad : {"{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1]}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,2}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,2,3]}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,2]}",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,2]}\n\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,x]}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,]}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,-]}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,99999999999999999999]}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"n\":[1,2]}\n", "{\"d\":1,"}) {
    CAPTURE(bad);
    CHECK(dec.Decode(keyframe) == keyframe);
    CHECK_THROWS_AS(dec.Decode(bad), pm::FormatError);
    // The differences after a corrupt line are from values never seen: the
    // baseline is gone until the next keyframe.
    CHECK_THROWS_AS(dec.Decode("{\"d\":1,\"t\":1,\"mono\":1,\"m\":[0,0]}\n"),
                    pm::FormatError);
  }
  CHECK(dec.Decode(keyframe) == keyframe);
  CHECK(dec.Decode("{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,-2]}\n") ==
        "{\"t\":2,\"mono\":2,\"m\":[2,0]}\n");
  dec.Lose();
  CHECK_THROWS_AS(dec.Decode("{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,2]}\n"), pm::FormatError);
}

// summary's skim sums without writing text: what Rebuilt() renders must
// be what Decode rebuilds, line for line, and a refused line must leave
// the last good line (the run's last sample a reader hands on).
TEST_CASE("TrySum validates as Decode does; Rebuilt() is Decode's line") {
  std::mt19937_64 rng(11);
  FakeSample s;
  s.rows = {{1, 2, 3, 4}, {5, 6, 7, 8}, {}};
  s.flat = {100, 20000, 3};
  pm::DeltaEncoder enc;
  pm::DeltaDecoder full, skim;
  size_t sums = 0;
  for (int i = 0; i < 2000; ++i) {
    Step(s, rng);
    std::string line = s.Line();
    std::string written(enc.Encode(line, s.mono));
    std::string want(full.Decode(written));
    REQUIRE(want == line);
    bool delta = pm::DeltaDecoder::IsDelta(written);
    // Every third difference line summed, the others decoded: the two
    // ways must hand each other a baseline that agrees.
    if (delta && i % 3 != 0) {
      REQUIRE(skim.TrySum(written) == nullptr);
      ++sums;
      if (i % 5 == 0) CHECK(skim.Rebuilt() == line);
    } else {
      CHECK(skim.Decode(written) == line);
    }
  }
  CHECK(sums > 1000);

  const std::string keyframe = "{\"t\":1,\"mono\":1,\"m\":[1,2]}\n";
  for (std::string bad : {"{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1]}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,x]}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"m\":[1,2,3]}\n",
                          "{\"d\":1,\"t\":1,\"mono\":1,\"n\":[5,2]}\n"}) {
    CAPTURE(bad);
    pm::DeltaDecoder dec;
    CHECK(dec.Decode(keyframe) == keyframe);
    REQUIRE(dec.TrySum("{\"d\":1,\"t\":1,\"mono\":1,\"m\":[10,0]}\n") == nullptr);
    std::string why;
    try {
      pm::DeltaDecoder reference;
      reference.Decode(keyframe);
      reference.Decode("{\"d\":1,\"t\":1,\"mono\":1,\"m\":[10,0]}\n");
      reference.Decode(bad);
    } catch (const pm::FormatError& e) {
      why = e.what();
    }
    const char* refused = dec.TrySum(bad);
    REQUIRE(refused != nullptr);
    CHECK(why == refused);
    CHECK(dec.Rebuilt() == "{\"t\":2,\"mono\":2,\"m\":[11,2]}\n");
    CHECK(dec.TrySum("{\"d\":1,\"t\":1,\"mono\":1,\"m\":[0,0]}\n") != nullptr);  // no baseline
  }
}

TEST_CASE("ReaderBaseline::Follow accepts what Advance does and keeps the line's text") {
  const std::vector<uint64_t> values = {0, 9, 10, 99999999, 100000000, 1234567890123,
                                        UINT64_MAX, 5};
  std::mt19937_64 rng(5);
  auto line_with = [&](int i) {
    std::string line = "{\"t\":" + std::to_string(i) + ",\"mono\":7,\"m\":[";
    for (int k = 0; k < 5; ++k) line += (k ? "," : "") + std::to_string(values[rng() % 8]);
    return line + "],\"z\":" + std::to_string(values[rng() % 8]) + "}";
  };
  pm::Baseline advanced;
  pm::ReaderBaseline followed;
  std::string first = line_with(0);
  REQUIRE(advanced.Split(first));
  REQUIRE(followed.Split(first));
  std::vector<char> out;
  for (int i = 1; i < 3000; ++i) {
    std::string line = line_with(i % 7 == 0 ? i - 1 : i);  // now and then only the m change
    out.resize(advanced.MaxLineBytes());
    REQUIRE(advanced.Advance(line, out.data()) != 0);
    REQUIRE(followed.Follow(line));
    REQUIRE(followed.Text() == line);
  }
  // Refused: the text stays the line before.
  std::string before(followed.Text());
  for (std::string bad : {"{\"t\":1,\"mono\":7,\"m\":[1,2,3,4],\"z\":1}",
                          "{\"t\":1,\"mono\":07,\"m\":[1,2,3,4,5],\"z\":1}",
                          "{\"t\":1,\"mono\":-7,\"m\":[1,2,3,4,5],\"z\":1}",
                          "{\"t\":1,\"mono\":7,\"m\":[1,2,3,4,5],\"y\":1}",
                          "{\"t\":1,\"mono\":7,\"m\":[1,2,3,4,18446744073709551616],\"z\":1}"}) {
    CAPTURE(bad);
    pm::ReaderBaseline b;
    REQUIRE(b.Split(before));
    CHECK_FALSE(b.Follow(bad));
    CHECK(b.Text() == before);
  }
}

// Skim is Follow for summary's skim: each line byte-damaged at random
// (digits in and out of integers, a leading zero, a sign, a 20-digit
// integer that overflows) or moved on as a recorder moves it must get
// Follow's answer and leave Follow's text, line after line.
TEST_CASE("ReaderBaseline::Skim answers as Follow does and keeps the same text") {
  std::mt19937_64 rng(11);
  const std::string kBytes = "0123456789-,.\"e0";
  auto line_with = [&](uint64_t t, uint64_t big) {
    std::string line = "{\"t\":" + std::to_string(t) + ",\"s\":\"sda12\",\"m\":[";
    for (int k = 0; k < 6; ++k) line += (k ? "," : "") + std::to_string(rng() % 3 ? 7 : rng());
    return line + "],\"big\":" + std::to_string(big) + "}";
  };
  for (uint64_t big : {uint64_t{42}, uint64_t{18446744073709551615u}}) {
    CAPTURE(big);
    std::string line = line_with(1'700'000'000'000'000'000, big);
    pm::ReaderBaseline followed, skimmed;
    REQUIRE(followed.Split(line));
    REQUIRE(skimmed.Split(line));
    for (int i = 0; i < 20000; ++i) {
      std::string next(followed.Text());
      if (rng() % 4 == 0) {
        next = line_with(1'700'000'000'000'000'000 + static_cast<uint64_t>(i), big);
      } else {
        for (uint64_t n = 1 + rng() % 3; n > 0; --n)
          next[rng() % next.size()] = kBytes[rng() % kBytes.size()];
      }
      CAPTURE(next);
      bool follows = followed.Follow(next);
      REQUIRE(skimmed.Skim(next) == follows);
      REQUIRE(skimmed.Text() == followed.Text());
      if (!follows) {  // only Split may follow a refusal
        std::string text(followed.Text());
        REQUIRE(followed.Split(text));
        REQUIRE(skimmed.Split(text));
      }
    }
  }
}
