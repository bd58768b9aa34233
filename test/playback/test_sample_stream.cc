// The item stream every reader consumes (playback/reading/sample_stream.hh): its
// time window (sample_window.hh), over recordings built in memory, read in
// full and skimmed; no sample is ever left out for being close to another.
#include <doctest/doctest.h>

#include <cstdlib>
#include <ctime>
#include <span>
#include <string>
#include <vector>

#include "common/error.hh"
#include "playback/reading/sample_stream.hh"
#include "playback/reading/sample_window.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/stream.hh"
#include "test/playback/pgr_builder.hh"
#include "test/playback/pgr_v2_builder.hh"

using namespace pm;
using namespace pm::test;

namespace {

const Shape kShape;
constexpr int64_t kSec = 1'000'000'000;
const size_t kCpu = MemberIndexOf("cpu");

// The CPU total: the cpu member's "all" row.
std::span<uint64_t> Total(RawSample& s) { return s.members[kCpu].row(0); }

// Samples k = 0..19 one second apart (MakeSample), marks "a" at k = 4 and
// "b" at k = 9 (each after its own sample, at its instant), a pause at
// k = 12 and the resume before k = 14.
TwoVersions Recording() {
  TwoVersions rec;
  rec.Header(kShape);
  for (uint64_t k = 0; k < 20; ++k) {
    RawSample s = MakeSample(kShape, 2 * (k / 2));  // even k: one shape throughout
    s.time_ns = MakeSample(kShape, k).time_ns;
    s.mono_ns = MakeSample(kShape, k).mono_ns;
    for (uint64_t& c : Total(s)) c += 10 * k;  // a tick passes each second
    if (k == 14) rec.Event("resume", s.time_ns - 1);
    rec.Sample(s);
    if (k == 4) rec.Event("mark", s.time_ns, "a");
    if (k == 9) rec.Event("mark", s.time_ns, "b");
    if (k == 12) rec.Event("pause", s.time_ns);
  }
  return rec;
}

int64_t T(uint64_t k) { return MakeSample(kShape, k).time_ns; }

struct Items {
  std::vector<std::string> items;  // "s K" for a sample (K its second), or the event kind
  uint64_t read = 0;               // the reader's samples_read(): outside the window too
};

// Every item through a SampleStream, `skim` as summary reads.
Items Read(const std::vector<std::string>& lines, WindowSpec window, bool skim = false) {
  std::string bytes = Compress(Compression::kPlain, lines);
  MemoryInputStream in(bytes);
  RecordingReader reader(in);
  SampleStream stream(reader, {window});
  if (skim) reader.SkimSamples(stream.cuts());
  RawSample s;
  RecordingEvent e;
  Items out;
  for (SampleStream::Item item; (item = stream.Next(s, e)) != SampleStream::Item::kEnd;)
    out.items.push_back(item == SampleStream::Item::kSample
                            ? "s " + std::to_string((s.time_ns - T(0)) / kSec)
                            : e.kind + (e.label.empty() ? "" : " " + e.label));
  stream.Finish();
  out.read = reader.samples_read();
  return out;
}

WindowBound Elapsed(int64_t ns) {
  WindowBound b;
  b.kind = WindowBound::Kind::kElapsed;
  b.ns = ns;
  b.given = std::to_string(ns);
  return b;
}

WindowBound Mark(const std::string& label) {
  WindowBound b;
  b.kind = WindowBound::Kind::kMark;
  b.mark = label;
  b.given = "mark:" + label;
  return b;
}

std::vector<std::string> Seconds(std::initializer_list<int> ks) {
  std::vector<std::string> out;
  for (int k : ks) out.push_back("s " + std::to_string(k));
  return out;
}

std::string ErrorOf(const std::vector<std::string>& lines, WindowSpec window) {
  try {
    Read(lines, window);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_SUITE("sample stream") {

TEST_CASE("elapsed bounds: the samples at both bounds included, nothing outside") {
  TwoVersions rec = Recording();
  WindowSpec w;
  w.from = Elapsed(2 * kSec);
  w.to = Elapsed(4 * kSec);
  std::vector<std::string> want = Seconds({2, 3, 4});
  want.push_back("mark a");  // at the instant of the last sample, inside
  for (const auto* lines : {&rec.v1, &rec.v2}) {
    Items got = Read(*lines, w);
    CHECK(got.items == want);
    CHECK(got.read == 20);  // the samples outside were read, and left out
    // A bound between samples: the ones inside.
    w.to = Elapsed(4 * kSec - 1);
    CHECK(Read(*lines, w).items == Seconds({2, 3}));
    w.to = Elapsed(4 * kSec);
  }
}

TEST_CASE("a mark's own sample opens the window it names, held back until the mark") {
  TwoVersions rec = Recording();
  WindowSpec w;
  w.from = Mark("a");
  w.to = Mark("b");
  std::vector<std::string> want = {"s 4", "mark a", "s 5", "s 6", "s 7", "s 8", "s 9", "mark b"};
  CHECK(Read(rec.v1, w).items == want);
  CHECK(Read(rec.v2, w).items == want);
  WindowSpec phase;
  phase.phase = "b";  // to the end: the pause and resume inside
  Items b = Read(rec.v1, phase);
  REQUIRE(b.items.size() > 4);
  CHECK(b.items.front() == "s 9");
  CHECK(b.items[1] == "mark b");
  CHECK(b.items.back() == "s 19");
}

TEST_CASE("summary's skim gives a window its first and last sample, and still skims") {
  TwoVersions rec = Recording();
  WindowSpec w;
  w.from = Elapsed(1 * kSec + 1);  // between samples 1 and 2
  w.to = Elapsed(7 * kSec);
  for (const auto* lines : {&rec.v1, &rec.v2}) {
    Items skim = Read(*lines, w, true);
    // The runs cut at 2 and 7 (and at the mark): their first and last
    // samples, and no other (3 and 6 are skimmed).
    CHECK(skim.items == std::vector<std::string>{"s 2", "s 4", "mark a", "s 5", "s 7"});
    Items full = Read(*lines, w, false);
    CHECK(full.items.front() == "s 2");
    CHECK(full.items.back() == "s 7");
  }
}

TEST_CASE("a mark that never comes, a window without a sample: UsageError naming what is") {
  TwoVersions rec = Recording();
  WindowSpec w;
  w.from = Mark("a");
  w.to = Mark("z");
  CHECK(ErrorOf(rec.v1, w) ==
        "no mark 'z' at or after the start of --from mark:a --to mark:z (its marks: a, b)");
  w.from = Mark("b");
  w.to = Mark("a");  // only before the start
  CHECK(ErrorOf(rec.v1, w).starts_with("no mark 'a' at or after the start of"));
  WindowSpec p;
  p.phase = "c";
  CHECK(ErrorOf(rec.v1, p) == "no mark 'c' for --phase c (its marks: a, b)");
  WindowSpec late;
  late.from = Elapsed(100 * kSec);
  CHECK(ErrorOf(rec.v2, late) ==
        "--from 100000000000 holds no sample (the recording's samples span 0.000-19.000 s, "
        "elapsed)");
  CHECK(ErrorOf(rec.v1, {}) == "no error");
}

TEST_CASE("a time of day is the first such instant from the recording's start on") {
  const char* tz = std::getenv("TZ");
  std::string saved = tz ? tz : "";
  setenv("TZ", "UTC", 1);
  tzset();
  int64_t origin = 1'700'000'000 * kSec;  // 2023-11-14T22:13:20Z
  CHECK(NextTimeOfDay(origin, (22 * 3600 + 30 * 60) * kSec) == origin + 1000 * kSec);
  CHECK(NextTimeOfDay(origin, (22 * 3600 + 13 * 60 + 20) * kSec) == origin);
  // Earlier in the day than the start: the next day.
  CHECK(NextTimeOfDay(origin, 3600 * kSec) == origin + (86400 - 22 * 3600 - 800 + 3600) * kSec);
  setenv("TZ", "Europe/Paris", 1);  // UTC+1 in November
  tzset();
  CHECK(NextTimeOfDay(origin, (23 * 3600 + 30 * 60) * kSec) == origin + 1000 * kSec);
  if (tz) setenv("TZ", saved.c_str(), 1);
  else unsetenv("TZ");
  tzset();
}

TEST_CASE("a sample 0.25 ms after the one before, counters unchanged, is given all the same") {
  std::vector<std::string> lines = {EncodeHeaderLine(Header(kShape))};
  RawSample s0 = MakeSample(kShape, 0), close = s0, s1 = MakeSample(kShape, 2);
  close.time_ns += 250'000;
  close.mono_ns += 250'000;
  for (const RawSample* s : {&s0, &close, &s1}) lines.push_back(SampleLine(*s));
  CHECK(Read(lines, WindowSpec()).items == Seconds({0, 0, 2}));
}

TEST_CASE("the origin is the recording's first item, or the one a cut's header keeps") {
  TwoVersions rec = Recording();
  WindowSpec w;
  w.from = Elapsed(2 * kSec);
  w.to = Elapsed(4 * kSec);
  for (std::vector<std::string> lines : {rec.v1, rec.v2}) {
    // A window leaves the first sample out; the origin is still it.
    std::string bytes = Compress(Compression::kPlain, lines);
    MemoryInputStream in(bytes);
    RecordingReader reader(in);
    SampleStream stream(reader, {w});
    CHECK_FALSE(stream.origin());
    RawSample s;
    RecordingEvent e;
    REQUIRE(stream.Next(s, e) == SampleStream::Item::kSample);
    CHECK(s.time_ns == T(2));
    REQUIRE(stream.origin());
    CHECK(stream.origin()->time_ns == T(0));
    CHECK(stream.origin()->mono_ns == MakeSample(kShape, 0).mono_ns);
    // A cut's header: its origin 3 s before the first item, from which
    // the elapsed bounds count (the header parser skips what it does not
    // know, so older readers read the line as before).
    std::string& header = lines[0];
    const size_t end = header.rfind('}');
    REQUIRE(end != std::string::npos);
    header.insert(end, ",\"origin\":{\"t\":" + std::to_string(T(0) - 3 * kSec) +
                                         ",\"mono\":7,\"later\":[1]}");
    std::string cut = Compress(Compression::kPlain, lines);
    MemoryInputStream cut_in(cut);
    RecordingReader cut_reader(cut_in);
    REQUIRE(cut_reader.info().origin);
    CHECK(cut_reader.info().origin->mono_ns == 7);
    SampleStream cut_stream(cut_reader, {});
    CHECK(cut_stream.origin()->time_ns == T(0) - 3 * kSec);
    CHECK(Read(lines, w).items == Seconds({0, 1}));
  }
}

}  // TEST_SUITE
