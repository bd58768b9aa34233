// The legacy PerfMonger reader on hand-built gob streams: the newer
// PerfMonger's type names and fields busy100.pgr lacks, records decoded
// afresh, edge-case streams, and hostile ones (each a FormatError that
// says where, never a crash or a hang).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/gob_reader.hh"
#include "test/playback/gob_fixture.hh"
#include "test/playback/sample_rows.hh"
#include "test/positions.hh"

using namespace pm;
using namespace pm::test;

namespace {

struct Stream {
  RecordingInfo info;
  std::vector<RawSample> records;
  bool truncated = false;
};

Stream Read(std::string_view bytes) {
  MemoryInputStream in(bytes);
  LegacyReader reader(in);
  Stream out{reader.info(), {}, false};
  RawSample sample;
  while (reader.Next(sample)) out.records.push_back(sample);
  out.truncated = reader.truncated();
  return out;
}

// CommonHeader and an empty LinuxHeader; ids from 68 are free.
GobStream MinimalHeaders() {
  GobStream s;
  s.DefineStruct(65, "CommonHeader", {{"Hostname", 6}, {"StartTime", 66}});
  s.DefineGobEncoder(66, "Time");
  s.Value(65, GobStruct().Field(0, GobString("h")).End());
  s.DefineStruct(67, "LinuxHeader", {});
  s.Value(67, GobStruct().End());
  return s;
}

}  // namespace

TEST_SUITE("legacy gob") {

TEST_CASE("newer type names, unknown fields, Interrupt and Mem") {
  GobStream s = NewerHeaders();
  s.Value(kStatRecord, FullRecord());
  Stream got = Read(s.bytes());
  CHECK(got.info.host == "db1");
  CHECK(got.info.start_ns == 1'700'000'000'000'000'250);
  CHECK(got.info.num_core == 1);
  CHECK_FALSE(got.truncated);
  REQUIRE(got.records.size() == 1);
  const RawSample& r = got.records[0];
  CHECK(r.time_ns == 1'700'000'001'000'000'005);
  CHECK(Row(r, "cpu", "all") == Values{11, 0, 0, 0, 0, 0, 0, 0, 0, 7});
  REQUIRE(Member(r, "cpu").rows() == 2);
  CHECK(Row(r, "cpu", "0") == Values{10, 0, 0, 20, 0, 0, 0, 0, 0, 0});
  CHECK(Member(r, "intr").has);
  // A numbered row is named by its number; a named one by its type.
  REQUIRE(Member(r, "intr").names == std::vector<std::string>{"24", "NMI"});
  CHECK(Live(r, "intr", "24"));
  CHECK(Row(r, "intr", "24") == Values{3, 0});
  CHECK(Row(r, "intr", "NMI") == Values{1, 2});
  CHECK(Row(r, "proc", "") == Values{100, 7});
  Values mem(30, 0);
  mem[0] = 1000;   // MemTotal
  mem[23] = 55;    // Committed_AS (after MemAvailable, which stays 0)
  mem[28] = 3;     // HugePages_Surp
  mem[29] = 2048;  // Hugepagesize
  CHECK(Row(r, "mem", "") == mem);
  CHECK_FALSE(Member(r, "disk").has);
  CHECK_FALSE(Member(r, "net").has);
}

TEST_CASE("each record is decoded afresh: an omitted field is 0") {
  GobStream s = NewerHeaders();
  s.Value(kStatRecord, FullRecord());
  s.Value(kStatRecord,
          GobStruct()
              .Field(kRecProc, GobStruct().Field(1, GobInt(8)).End())
              .Field(kRecTime, GobTime(1'700'000'002, 0))
              .End());
  Stream got = Read(s.bytes());
  REQUIRE(got.records.size() == 2);
  const RawSample& r = got.records[1];
  CHECK(r.time_ns == 1'700'000'002'000'000'000);
  CHECK(Row(r, "proc", "") == Values{0, 8});
  CHECK_FALSE(Member(r, "cpu").has);
  CHECK(Member(r, "cpu").rows() == 0);
  CHECK_FALSE(Member(r, "intr").has);
  CHECK(Member(r, "intr").rows() == 0);
  CHECK_FALSE(Member(r, "mem").has);
  CHECK(Member(r, "mem").values.empty());
}

TEST_CASE("empty, header-only, and cut streams") {
  Stream empty = Read("");
  CHECK(empty.records.empty());
  CHECK(empty.truncated);

  Stream headers = Read(NewerHeaders().bytes());
  CHECK(headers.records.empty());
  CHECK_FALSE(headers.truncated);
  CHECK(headers.info.host == "db1");
  CHECK(headers.info.num_core == 0);

  GobStream s = NewerHeaders();
  s.Value(kStatRecord, FullRecord());
  const std::string bytes = s.bytes();
  const size_t record_start = NewerHeaders().bytes().size();
  for (size_t cut : Positions(0, bytes.size())) {
    CAPTURE(cut);
    Stream got;
    REQUIRE_NOTHROW(got = Read(std::string_view(bytes).substr(0, cut)));
    CHECK(got.records.empty());
    if (cut > record_start) CHECK(got.truncated);
  }
}

TEST_CASE("a non-struct top-level value and unknown arrays are skipped") {
  GobStream s;
  s.DefineStruct(65, "CommonHeader", {{"Hostname", 6}});
  s.Value(65, GobStruct().Field(0, GobString("h")).End());
  s.DefineSlice(66, "[]string", 6);
  s.Value(66, '\0' + GobSlice({GobString("sda")}));  // the singleton field
  s.DefineStruct(67, "StatRecord", {{"Pair", 69}, {"Proc", 68}});
  s.DefineStruct(68, "ProcStat", {{"Fork", 2}});
  s.DefineArray(69, "[2]float64", 4, 2);
  s.Value(67, GobStruct()
                  .Field(0, GobSlice({GobUint(0x40), GobUint(0)}))
                  .Field(1, GobStruct().Field(0, GobInt(9)).End())
                  .End());
  Stream got = Read(s.bytes());
  REQUIRE(got.records.size() == 1);
  CHECK(Row(got.records[0], "proc", "")[1] == 9);
}

TEST_CASE("hostile streams: a FormatError naming the byte") {
  struct Case {
    const char* name;
    std::string tail;  // after MinimalHeaders()
    const char* message;
  };
  std::string nested = GobStruct().End();
  for (int i = 0; i < 40; ++i)
    nested = GobStruct().Field(0, GobSlice({nested})).End();
  GobStream node;  // Node{Kids []Node}: a recursive type
  node.DefineStruct(68, "Node", {{"Kids", 69}});
  node.DefineSlice(69, "[]Node", 68);
  auto with_node = [&](const std::string& value) {
    GobStream s = node;
    s.Value(68, value);
    return s.bytes();
  };
  auto with_record = [](const GobFields& fields, const std::string& value) {
    GobStream s;
    s.DefineStruct(68, "StatRecord", fields);
    s.Value(68, value);
    return s.bytes();
  };
  std::string common =
      GobStruct().Field(0, GobString("X")).Field(1, GobInt(70)).End();
  std::string two_kinds =
      GobInt(-70) +
      GobStruct()
          .Field(1, GobStruct().Field(0, common).Field(1, GobInt(6)).End())
          .Field(4, GobStruct().Field(0, common).End())
          .End();
  GobStream proc_string;
  proc_string.DefineStruct(68, "StatRecord", {{"Proc", 69}});
  proc_string.DefineStruct(69, "ProcStat", {{"ContextSwitch", 6}});
  proc_string.Value(
      68,
      GobStruct().Field(0, GobStruct().Field(0, GobString("x")).End()).End());
  const Case cases[] = {
      {"recursion", with_node(nested), "values nested too deeply"},
      {"count", with_node(GobStruct().Field(0, GobUint(1000) + "\0\0").End()),
       "element count 1000 larger than its message"},
      {"field number", with_node(GobStruct().Field(5, "").End()),
       "bad field number in a Node value"},
      {"trailing", with_node(GobStruct().End() + "x"),
       "unexpected bytes after a value"},
      {"duplicate",
       with_record({}, GobStruct().End()) +
           with_record({}, GobStruct().End()),
       "bad or duplicate type id 68"},
      {"two kinds", GobUint(two_kinds.size()) + two_kinds,
       "bad type definition"},
      {"interface",
       with_record({{"Any", 8}}, GobStruct().Field(0, "x").End()),
       "interface values are not supported"},
      {"type", with_record({{"Proc", 66}}, GobStruct().Field(0, "x").End()),
       "type id 66 is not a struct"},
      {"undefined",
       with_record({{"Proc", 99}}, GobStruct().Field(0, "x").End()),
       "undefined type id 99"},
      {"time",
       with_record({{"Time", 66}},
                   GobStruct().Field(0, GobTime(0, 1'000'000'000)).End()),
       "bad time.Time nanoseconds"},
      {"string as integer", proc_string.bytes(), "expected an integer"},
      {"huge message", GobUint(gob::kMaxMessage + 1), "over the limit"},
      {"length byte", "\xf0", "bad integer length byte"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    std::string bytes = MinimalHeaders().bytes() + c.tail;
    CHECK_THROWS_WITH_AS(Read(bytes), doctest::Contains(c.message),
                         FormatError);
    CHECK_THROWS_WITH_AS(Read(bytes), doctest::Contains(" at byte "),
                         FormatError);
  }
}

}  // TEST_SUITE
