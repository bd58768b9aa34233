// The native reader on hand-written lines: columns matched by name, what a
// newer writer may add, null rows, events, metadata, storage reuse, and the
// header's errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hh"
#include "proto/meta.hh"
#include "playback/reading/native_reader.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/damage.hh"

using namespace pm;
using namespace pm::test;

namespace {

using Item = RecordingReader::Item;

struct Reader {
  explicit Reader(std::string text) : bytes(std::move(text)), in(bytes), reader(in) {}
  Item Next() { return reader.Next(sample, event); }

  std::string bytes;
  MemoryInputStream in;
  NativeReader reader;
  RawSample sample;
  RecordingEvent event;
};

std::string HeaderWith(std::string_view collectors) {
  return std::string(R"({"format":"perfmonger-pgr","version":1,"collectors":)") +
         std::string(collectors) + "}\n";
}

std::string ErrorOf(const std::string& text) {
  try {
    Reader r(text);
    while (r.Next() != Item::kEnd) {
    }
    if (!r.reader.warnings().empty()) return FirstDamage(r.reader.warnings());
  } catch (const FormatError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_SUITE("native reader") {

TEST_CASE("columns are matched by name: reordered, unknown, missing") {
  Reader r(HeaderWith(R"({"cpu":{"fields":["new","idle","user"],"cores":[0]},)"
                      R"("mem":{"fields":["MemFree","Bogus","MemTotal"]},)"
                      R"("proc":{"fields":["processes","ctxt"]}})") +
           R"({"t":5,"cpu":[[1,2,3],[4,5,6]],"mem":[10,11,12],"proc":[7,8]})" "\n");
  REQUIRE(r.Next() == Item::kSample);
  CHECK(Row(r.sample, "cpu", "all") == Values{3, 0, 0, 2, 0, 0, 0, 0, 0, 0});
  REQUIRE(Member(r.sample, "cpu").rows() == 2);
  CHECK(Row(r.sample, "cpu", "0") == Values{6, 0, 0, 5, 0, 0, 0, 0, 0, 0});
  Values mem = Row(r.sample, "mem", "");
  CHECK(mem[0] == 12);  // MemTotal
  CHECK(mem[1] == 10);  // MemFree
  CHECK(std::count(mem.begin(), mem.end(), 0) == 28);
  CHECK(Row(r.sample, "proc", "") == Values{8, 7});
  CHECK_FALSE(Member(r.sample, "disk").has);
  CHECK(r.Next() == Item::kEnd);
}

TEST_CASE("what a newer writer may add is ignored") {
  Reader r(R"({"format":"perfmonger-pgr","version":1,"new":{"a":[1,{"b":null}]},)"
           R"("collectors":{"gpu":{"fields":["x"]},"mem":{"fields":["MemTotal"]}}})" "\n"
           R"({"event":"future","t":1,"extra":[1.5e3]})" "\n"
           R"({"t":2,"gpu":[[1]],"mem":[9],"note":"\u00e9"})" "\n");
  REQUIRE(r.Next() == Item::kSample);
  CHECK(r.sample.time_ns == 2);
  CHECK(Row(r.sample, "mem", "")[0] == 9);
  CHECK(r.Next() == Item::kEnd);
  CHECK_FALSE(r.reader.truncated());
}

TEST_CASE("null rows are absent; missing members clear the reused sample") {
  Shape shape;
  RawSample odd = MakeSample(shape, 1);
  Reader r(EncodeHeaderLine(Header(shape)) + SampleLine(MakeSample(shape, 2)) +
           SampleLine(odd) + "{\"t\":7,\"mono\":8}\n" + SampleLine(odd));
  REQUIRE(r.Next() == Item::kSample);
  REQUIRE(r.Next() == Item::kSample);
  CHECK(Dump(r.sample) == Dump(odd));
  CHECK_FALSE(Live(r.sample, "cpu", "1"));
  CHECK_FALSE(Live(r.sample, "disk", "nvme0n1"));
  CHECK(Member(r.sample, "disk").names[1] == "nvme0n1");
  CHECK_FALSE(Live(r.sample, "intr", "NMI"));
  CHECK(Live(r.sample, "intr", "24"));
  REQUIRE(r.Next() == Item::kSample);
  RawSample bare;
  bare.time_ns = 7;
  bare.mono_ns = 8;
  CHECK(Dump(r.sample) == Dump(bare));
  REQUIRE(r.Next() == Item::kSample);
  CHECK(Dump(r.sample) == Dump(odd));
}

TEST_CASE("steady state reuses the sample's storage") {
  Shape shape;
  std::string text = EncodeHeaderLine(Header(shape));
  for (uint64_t k = 0; k < 4; ++k) text += SampleLine(MakeSample(shape, k));
  Reader r(text);
  REQUIRE(r.Next() == Item::kSample);
  const void* disks = Member(r.sample, "disk").values.data();
  const void* counts = Member(r.sample, "intr").values.data();
  const void* name = Member(r.sample, "disk").names[1].data();
  while (r.Next() == Item::kSample) {
    CHECK(Member(r.sample, "disk").values.data() == disks);
    CHECK(Member(r.sample, "intr").values.data() == counts);
    CHECK(Member(r.sample, "disk").names[1].data() == name);
  }
}

TEST_CASE("rows' labels (a process's comm) come with the recording's info") {
  Reader r(HeaderWith(R"({"procs":{"fields":["utime_us"],"rows":["42","cmd"],)"
                      R"j("labels":{"comm":["sh (x)","make"]}}})j"));
  const auto& labels = r.reader.info().row_labels[MemberIndexOf("procs")];
  REQUIRE(labels.size() == 1);
  CHECK(labels[0].first == "comm");
  CHECK(labels[0].second == std::vector<std::string>{"sh (x)", "make"});
}

TEST_CASE("the CPU series' sources come with the recording's info, members in order") {
  Reader r(HeaderWith(
      R"({"cpu":{"fields":["user"],"cores":[0],"sources":[{"fields":["user"],)"
      R"("rows":["all","cores"],"file":"/proc/stat","resolution_ns":10000000}]},)"
      R"("cpu_fine":{"fields":["busy_ns"],"cores":[0],"sources":[{"fields":["busy_ns",)"
      R"("user_ns"],"rows":["all"],"file":"/sys/fs/cgroup/cpu.stat","resolution_ns":4000000,)"
      R"("later":{"a":1}}]}})"));
  const std::vector<SeriesSource>& s = r.reader.info().sources;
  REQUIRE(s.size() == 2);
  CHECK(s[0].member == MemberIndexOf("cpu"));
  CHECK(s[0].file == "/proc/stat");
  CHECK(s[0].resolution_ns == 10'000'000);
  CHECK(s[0].Covers("user", "cores"));
  CHECK(s[1].member == MemberIndexOf("cpu_fine"));
  CHECK(s[1].Covers("user_ns", "all"));
  CHECK_FALSE(s[1].Covers("user_ns", "cores"));
  CHECK(s[1].resolution_ns == 4'000'000);
  // A recording from before the sources names none.
  CHECK(Reader(HeaderWith(R"({"cpu":{"fields":["user"],"cores":[0]}})")).reader.info().sources.empty());
  CHECK(ErrorOf(HeaderWith(R"({"cpu":{"fields":["user"],"cores":[0],"sources":[{"resolution_ns":-1}]}})"))
            .find("negative value") != std::string::npos);
}

TEST_CASE("events: mark labels with escapes, end reasons") {
  std::string label = "a \"quoted\" <tag> & \\ \t \xe2\x9c\x93 \xf0\x9f\x98\x80";
  Reader r(HeaderWith("{}") + EncodeEventLine("mark", 11, 12, label) +
           EncodeEndLine({13, 14, "SIGTERM", 0, 0}));
  REQUIRE(r.Next() == Item::kEvent);
  CHECK(r.event.kind == "mark");
  CHECK(r.event.time_ns == 11);
  CHECK(r.event.label == label);
  REQUIRE(r.Next() == Item::kEvent);
  CHECK(r.event.kind == "end");
  CHECK(r.event.reason == "SIGTERM");
  CHECK(r.event.label.empty());
  CHECK(r.Next() == Item::kEnd);
}

TEST_CASE("the clock's state comes back from the header, marks and the trailer") {
  ClockState synced{.disciplined = true, .synced = true, .offset_ns = -250,
                    .maxerror_us = 1200, .esterror_us = 40, .source = "tsc"};
  ClockState source_only{.source = "kvm-clock"};
  RecordingHeader h = Header(Shape{});
  h.clock = synced;
  Reader r(EncodeHeaderLine(h) + EncodeEventLine("mark", 11, 12, "q1", &source_only) +
           EncodeEventLine("pause", 13, 14) +
           EncodeEndLine({.t_ns = 15, .mono_ns = 16, .reason = "SIGINT", .clock = &synced}));
  REQUIRE(r.reader.info().clock);
  CHECK(*r.reader.info().clock == synced);
  REQUIRE(r.Next() == Item::kEvent);
  CHECK(r.event.label == "q1");
  REQUIRE(r.event.clock);
  CHECK(*r.event.clock == source_only);
  REQUIRE(r.Next() == Item::kEvent);
  CHECK_FALSE(r.event.clock);  // not carried over from the mark
  REQUIRE(r.Next() == Item::kEvent);
  CHECK(r.event.reason == "SIGINT");
  REQUIRE(r.event.clock);
  CHECK(*r.event.clock == synced);
}

TEST_CASE("a recording from before the clock's state has none; a clock of a newer writer reads") {
  Reader old(EncodeHeaderLine(Header(Shape{})) + EncodeEventLine("mark", 11, 12, "q1") +
             EncodeEndLine({13, 14, "SIGTERM", 0, 0}));
  CHECK_FALSE(old.reader.info().clock);
  REQUIRE(old.Next() == Item::kEvent);
  CHECK_FALSE(old.event.clock);
  REQUIRE(old.Next() == Item::kEvent);
  CHECK_FALSE(old.event.clock);
  Reader newer(HeaderWith("{}") +
               R"({"event":"mark","t":1,"label":"x","clock":{"leap":"ins","synced":true}})"
               "\n");
  REQUIRE(newer.Next() == Item::kEvent);
  REQUIRE(newer.event.clock);
  CHECK(newer.event.clock->synced);
  CHECK(ErrorOf(HeaderWith("{}") + R"({"event":"mark","t":1,"clock":{"synced":1}})" "\n")
            .find("expected") != std::string::npos);
  CHECK(ErrorOf(HeaderWith("{}") + R"({"event":"end","t":1,"clock":{"maxerror_us":-1}})" "\n")
            .find("negative") != std::string::npos);
}

TEST_CASE("metadata comes back decoded, in order") {
  MetaList meta = {ParseMetaArg("sql=SELECT%20*%20FROM%20t%20WHERE%20id%3D42"),
                   ParseMetaArg("<k>=a&b <c> \xc3\xa9"), ParseMetaArg("empty=")};
  CHECK(meta[0].second == "SELECT * FROM t WHERE id=42");
  std::string header = EncodeHeaderLine(Header(Shape{}, meta));
  CHECK(header.find("\\u003ck\\u003e") != std::string::npos);
  Reader r(header);
  CHECK(r.reader.info().meta == meta);
  CHECK(r.reader.info().version == 1);
}

TEST_CASE("header and layout errors") {
  struct Case {
    std::string text;
    const char* want;
  };
  const Case cases[] = {
      {"{\"version\":1}\n", "pgr line 1, byte 0: not a perfmonger recording"},
      {"{\"format\":\"perfmonger-pgr\"}\n", "pgr line 1, byte 0: header without a version"},
      {"{\"format\":\"perfmonger-pgr\",\"version\":3}\n", "unsupported pgr version 3"},
      {HeaderWith(R"({"cpu":{"cores":[0]}})"), "a collector without \"fields\""},
      {HeaderWith(R"({"intr":{"rows":[]}})"), "\"intr\" without \"cpus\""},
      {HeaderWith("{}") + "{\"t\":1,\"mem\":[1]}\n",  // line 2 starts at byte 56
       "pgr line 2, byte 56: \"mem\" is not in the header"},
      {HeaderWith(R"({"cpu":{"fields":["user"],"cores":[0]}})") + "{\"t\":1,\"cpu\":[[1]]}\n",
       "fewer rows than the header declares"},
      {HeaderWith(R"({"intr":{"cpus":1,"rows":[{"irq":"1"}]}})") +
           "{\"t\":1,\"intr\":[[1,2]]}\n",
       "more values than the header's columns"},
      {HeaderWith(R"({"disk":{"fields":[],"devices":["a"]}})") + "{\"t\":1,\"disk\":[[],[]]}\n",
       "more rows than the header declares"},
      {HeaderWith(R"({"procs":{"fields":["utime_us"],"rows":["1","2"],"labels":{"comm":["a"]}}})"),
       "label \"comm\" without one value per row"},
  };
  for (const Case& k : cases) {
    CAPTURE(k.text);
    CHECK(ErrorOf(k.text).find(k.want) != std::string::npos);
  }
}

}  // TEST_SUITE
