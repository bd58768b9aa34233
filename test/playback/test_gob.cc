// The legacy PerfMonger reader against PerfMonger's own recording
// (busy100.pgr, whose `play` output busy100.pgr.played fixes the values),
// cut at every byte, corrupted at every byte; and against hand-built gob
// streams for what that recording lacks (the newer type names, Interrupt,
// Mem, unknown fields) and for hostile shapes.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "common/error.hh"
#include "proto/codec.hh"
#include "playback/reading/gob_reader.hh"
#include "test/playback/legacy_data.hh"
#include "test/playback/sample_rows.hh"
#include "test/positions.hh"
#include "test/proto/stream_test_util.hh"

using namespace pm;
using pm::test::OneByteInput;
using pm::test::Positions;
using pm::test::ReadLegacyFile;
using pm::test::Live;
using pm::test::Member;
using pm::test::Row;
using pm::test::Values;

namespace {

struct Legacy {
  RecordingInfo info;
  std::vector<RawSample> records;
  bool truncated = false;
};

// Decompresses (gzip or plain, by magic) and decodes every record.
Legacy DecodeLegacy(std::string_view bytes) {
  MemoryInputStream source(bytes);
  auto input = MakeDecompressor(source);
  LegacyReader reader(*input);
  Legacy out{reader.info(), {}, false};
  RawSample sample;
  while (reader.Next(sample)) out.records.push_back(sample);
  out.truncated = reader.truncated() || input->truncated();
  return out;
}

// Everything a record holds, as text: compares records in one CHECK.
std::string Describe(const RawSample& s) {
  std::string out;
  auto add = [&](std::string_view word) {
    out += word;
    out += ' ';
  };
  auto counters = [&](const auto& values) {
    for (uint64_t v : values) add(std::to_string(v));
  };
  for (int64_t v : {s.time_ns, s.mono_ns}) add(std::to_string(v));
  for (const MemberRows& m : s.members) {
    add(m.has ? "|" : "|-");
    for (size_t r = 0; r < m.rows(); ++r) add(m.names[r]), counters(m.row(r));
  }
  return out;
}

std::string Fixed(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", v);
  return text;
}

double Seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

// Message ends in a plain gob stream, walking the length prefixes.
std::vector<size_t> MessageEnds(std::string_view bytes) {
  std::vector<size_t> ends;
  for (size_t at = 0; at < bytes.size();) {
    auto first = static_cast<uint8_t>(bytes[at]);
    size_t prefix = first < 0x80 ? 1 : 1 + (256 - first);
    size_t length = first < 0x80 ? first : 0;
    for (size_t i = 1; i < prefix; ++i)
      length = length << 8 | static_cast<uint8_t>(bytes[at + i]);
    at += prefix + length;
    ends.push_back(at);
  }
  return ends;
}

// busy100.pgr: the LinuxHeader value ends here; the last four messages are
// the records.
constexpr size_t kHeaderEnd = 0x204;

}  // namespace

TEST_SUITE("legacy gob") {

TEST_CASE("busy100.pgr: header") {
  Legacy got = DecodeLegacy(ReadLegacyFile("busy100.pgr"));
  CHECK(got.info.format == "perfmonger-gob");
  CHECK(got.info.host == "megaru-debian");
  CHECK(got.info.start_ns == 1'425'358'683'118'656'614);
  CHECK(got.info.num_core == 2);
  CHECK(got.info.interval_ns == 0);
  CHECK(got.info.meta.empty());
  CHECK_FALSE(got.truncated);
}

TEST_CASE("busy100.pgr: records, and the raw counters behind play's output") {
  Legacy got = DecodeLegacy(ReadLegacyFile("busy100.pgr"));
  REQUIRE(got.records.size() == 4);
  const RawSample& a = got.records[0];
  const RawSample& b = got.records[1];
  const RawSample& last = got.records[3];
  CHECK(a.time_ns == 1'425'358'683'121'739'951);
  CHECK(last.time_ns == 1'425'358'690'645'353'919);
  CHECK(a.mono_ns == 0);
  CHECK(Member(a, "cpu").has);
  CHECK(Member(a, "proc").has);
  CHECK(Member(a, "disk").has);
  CHECK(Member(a, "net").has);
  CHECK_FALSE(Member(a, "intr").has);  // this PerfMonger's StatRecord has no such field
  CHECK_FALSE(Member(a, "mem").has);
  CHECK(Row(a, "proc", "") == Values{5'909'540, 96'633});
  CHECK(Row(a, "cpu", "all") == Values{90547, 0, 33528, 7820599, 1766, 0, 691, 0, 0, 0});
  REQUIRE(Member(a, "cpu").rows() == 3);
  CHECK(Live(a, "cpu", "1"));
  CHECK(Row(a, "cpu", "1") == Values{45453, 0, 16564, 3909352, 1013, 0, 417, 0, 0, 0});
  REQUIRE(Member(a, "disk").names == std::vector<std::string>{"sda", "sda1", "sda2"});
  CHECK(Live(a, "disk", "sda2"));
  // PerfMonger had no discards nor flushes: those read 0 (and are shown nowhere).
  CHECK(Row(a, "disk", "sda") == Values{48789, 12334, 1597810, 33496, 45602, 50560, 3152488,
                                        90824, 0, 38180, 124040, 0, 0, 0, 0, 0, 0});
  // play sorts: "devices":["eth0","lo"]
  REQUIRE(Member(a, "net").names == std::vector<std::string>{"lo", "eth0"});
  CHECK(Row(a, "net", "eth0") ==
        Values{10516959, 46637, 0, 0, 0, 0, 0, 0, 12649959, 34285, 0, 0, 0, 0, 0, 0});

  // play's first line: "time":1425358686.123,"elapsed_time":3.001, core 1
  // "usr":99.67 (Δuser over Δ(all ten)), sda "wiops":1.67,"wkbyteps":26.66,
  // eth0 "rxpktps":0.67.
  double dt = Seconds(b.time_ns - a.time_ns);
  CHECK(Fixed(Seconds(b.time_ns)) == "1425358686.12");
  CHECK(Fixed(dt) == "3.00");
  auto delta = [](const auto& x, const auto& y, size_t i) {
    return static_cast<double>(y[i] - x[i]);
  };
  double core_total = 0;
  Values core_a = Row(a, "cpu", "1"), core_b = Row(b, "cpu", "1");
  Values sda_a = Row(a, "disk", "sda"), sda_b = Row(b, "disk", "sda");
  for (size_t i = 0; i < 10; ++i) core_total += delta(core_a, core_b, i);
  CHECK(Fixed(delta(core_a, core_b, 0) / core_total * 100) == "99.67");
  CHECK(Fixed(delta(sda_a, sda_b, 4) / dt) == "1.67");
  CHECK(Fixed(delta(sda_a, sda_b, 6) * 512 / 1024 / dt) == "26.66");
  CHECK(Fixed(delta(Row(a, "net", "eth0"), Row(b, "net", "eth0"), 1) / dt) == "0.67");
  // Last line: "elapsed_time":7.524, counted from the first record (the
  // header's StartTime is 3 ms earlier).
  CHECK(Fixed(Seconds(last.time_ns - a.time_ns)) == "7.52");
}

TEST_CASE("busy100.pgr.gz decodes like busy100.pgr, also one byte per read") {
  Legacy plain = DecodeLegacy(ReadLegacyFile("busy100.pgr"));
  Legacy gz = DecodeLegacy(ReadLegacyFile("busy100.pgr.gz"));
  REQUIRE(gz.records.size() == plain.records.size());
  for (size_t i = 0; i < plain.records.size(); ++i)
    CHECK(Describe(gz.records[i]) == Describe(plain.records[i]));
  CHECK(gz.info.host == plain.info.host);
  CHECK_FALSE(gz.truncated);

  std::string bytes = ReadLegacyFile("busy100.pgr");
  OneByteInput slow(bytes);
  LegacyReader reader(slow);
  RawSample sample;
  for (const RawSample& want : plain.records) {
    REQUIRE(reader.Next(sample));
    CHECK(Describe(sample) == Describe(want));
  }
  CHECK_FALSE(reader.Next(sample));
  CHECK_FALSE(reader.truncated());
}

TEST_CASE("busy100.pgr cut at every byte: complete records, then truncated") {
  const std::string bytes = ReadLegacyFile("busy100.pgr");
  const std::vector<size_t> ends = MessageEnds(bytes);
  REQUIRE(ends.back() == bytes.size());
  const Legacy whole = DecodeLegacy(bytes);
  const std::vector<size_t> record_ends(ends.end() - 4, ends.end());
  for (size_t cut : Positions(0, bytes.size() + 1)) {
    CAPTURE(cut);
    Legacy got;
    REQUIRE_NOTHROW(got =
                        DecodeLegacy(std::string_view(bytes).substr(0, cut)));
    size_t complete = 0;
    while (complete < 4 && record_ends[complete] <= cut) ++complete;
    REQUIRE(got.records.size() == complete);
    for (size_t i = 0; i < complete; ++i)
      CHECK(Describe(got.records[i]) == Describe(whole.records[i]));
    bool at_boundary = std::find(ends.begin(), ends.end(), cut) != ends.end();
    CHECK(got.truncated == (cut < kHeaderEnd || !at_boundary));
    if (cut >= kHeaderEnd) CHECK(got.info.host == "megaru-debian");
  }
}

TEST_CASE("busy100.pgr.gz cut at every byte: no throw, records only grow") {
  const std::string bytes = ReadLegacyFile("busy100.pgr.gz");
  const Legacy whole = DecodeLegacy(bytes);
  size_t previous = 0;
  for (size_t cut : Positions(0, bytes.size())) {
    CAPTURE(cut);
    Legacy got;
    REQUIRE_NOTHROW(got =
                        DecodeLegacy(std::string_view(bytes).substr(0, cut)));
    CHECK(got.truncated);
    CHECK(got.records.size() >= previous);
    previous = got.records.size();
    for (size_t i = 0; i < got.records.size(); ++i)
      CHECK(Describe(got.records[i]) == Describe(whole.records[i]));
  }
}

TEST_CASE("busy100.pgr with a corrupt byte: decodes, or says where") {
  struct Corruption {
    size_t offset;
    char byte;
    const char* message;
  };
  const Corruption table[] = {
      {0x000, '\x00', "legacy recording: zero bytes instead of a message at byte 0"},
      {0x000, '\xf0', "legacy recording: bad integer length byte at byte 0"},
      {0x000, '\xfb', "over the limit at byte 0"},
      {0x001, '\x03', "bad or duplicate type id 2 at byte 2"},  // reserved id
      {0x05b, '\x7f',
       "string or byte slice past the end of its message at byte 91"},
      {0x06b, '\x03', "bad time.Time encoding at byte 106"},
      {0x633, '\x7e', "undefined type id 63 at byte 1588"},
  };
  const std::string bytes = ReadLegacyFile("busy100.pgr");
  for (const Corruption& c : table) {
    CAPTURE(c.offset);
    std::string bad = bytes;
    bad[c.offset] = c.byte;
    CHECK_THROWS_WITH_AS(DecodeLegacy(bad), doctest::Contains(c.message),
                         FormatError);
  }
  // Every byte (a spread under a sanitizer: test/positions.hh), three
  // ways: no crash, no hang, and a FormatError that says where whenever
  // the damage is noticed.
  for (size_t offset : Positions(0, bytes.size())) {
    for (unsigned char mask : {0x01, 0x80, 0xff}) {
      std::string bad = bytes;
      bad[offset] = static_cast<char>(bad[offset] ^ mask);
      try {
        DecodeLegacy(bad);
      } catch (const FormatError& e) {
        CAPTURE(offset);
        CHECK(std::string(e.what()).find(" at byte ") != std::string::npos);
      }
    }
  }
}

}  // TEST_SUITE
