// summary --stats on recordings built in memory: every number below is
// worked out by hand from the counters the test writes.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "playback/statistics/span_stats.hh"
#include "playback/statistics/stats_walk.hh"
#include "playback/outputs/summary.hh"
#include "proto/columns/mem.hh"
#include "test/playback/sample_rows.hh"
#include "test/process/json.hh"

namespace pm {
namespace {

constexpr int64_t kSecond = 1'000'000'000;

// At `t_ms`: disk vda with `writes` writes (8 sectors each), memory with
// `used_mib` MiB used of 1024 MiB (free the rest), two cores whose CPU
// counters say core 0 was busy for `busy0` ticks and core 1 idle.
RawSample At(int64_t t_ms, uint64_t writes, uint64_t used_mib, uint64_t busy0 = 0) {
  RawSample s;
  s.time_ns = t_ms * 1'000'000;
  test::DiskCounters d{};
  d[4] = writes;
  d[6] = writes * 8;
  d[7] = writes * 2;  // 2 ms each
  test::AddDisk(s, "vda", d);
  test::Values mem(kMemFields.size(), 0);
  mem[0] = 1024 * 1024;  // MemTotal, kB
  mem[1] = (1024 - used_mib) * 1024;
  mem[2] = mem[1];       // MemAvailable
  test::AddRow(s, "mem", "", mem);
  // 100 ticks a second per core: core 0 busy `busy0` of them, core 1 idle.
  const uint64_t ticks = static_cast<uint64_t>(t_ms) / 10;
  test::CpuCounters c0{}, c1{}, all{};
  c0[0] = busy0;
  c0[3] = ticks - busy0;
  c1[3] = ticks;
  all[0] = busy0;
  all[3] = 2 * ticks - busy0;
  test::SetCpu(s, all, {c0, c1});
  return s;
}

RecordingEvent Event(const char* kind, int64_t t_ms, const char* label = "") {
  RecordingEvent e;
  e.kind = kind;
  e.time_ns = t_ms * 1'000'000;
  e.label = label;
  return e;
}

SeriesStats Named(const SpanStats& stats, std::string_view name) {
  for (const SeriesStats& s : stats.Results())
    if (s.name == name) return s;
  FAIL("no series " << name);
  return {};
}

TEST_SUITE("span stats") {

TEST_CASE("rates: the mean is time-weighted (the span's rate), ranks are nearest rank") {
  ReportOptions options;
  StatsWalk walk({}, options);
  // Intervals of 1, 2 and 1 s with 10, 20 and 40 writes: 10, 10, 40 IO/s.
  walk.OnSample(At(0, 0, 100));
  walk.OnSample(At(1000, 10, 300));
  walk.OnSample(At(3000, 30, 900));
  walk.OnSample(At(4000, 70, 200));
  const SpanStats& whole = walk.whole();
  CHECK(whole.intervals() == 3);
  SeriesStats w = Named(whole, "disk.vda.wiops");
  CHECK(w.unit == "IO/s");
  CHECK_FALSE(w.level);
  CHECK(w.count == 3);
  CHECK(w.mean == doctest::Approx(17.5));  // 70 writes / 4 s, not (10+10+40)/3
  CHECK(w.min == 10);
  CHECK(w.max == 40);
  CHECK(w.max_ns == 4 * kSecond);
  CHECK(w.p50 == 10);  // 10 for 3 of the 4 s
  CHECK(w.p95 == 40);
  CHECK(w.p99 == 40);
  // 8 sectors of 512 bytes per write: 40 IO/s is 0.15625 MiB/s.
  CHECK(Named(whole, "disk.vda.wmibps").max == doctest::Approx(40 * 4096.0 / 1048576.0));
  CHECK(Named(whole, "disk.vda.wlatency").mean == doctest::Approx(2.0));
  // No read in any interval: no read latency at all.
  for (const SeriesStats& s : whole.Results()) CHECK(s.name != "disk.vda.rlatency");
}

TEST_CASE("rates: a percentile weighs each interval by its length, not as one of n") {
  ReportOptions options;
  StatsWalk walk({}, options);
  // 10 ms bursts of 100 IO/s between seconds of 10 IO/s: by count half the
  // intervals are bursts (p95 would be 100), by time 1 %.
  walk.OnSample(At(0, 0, 100));
  walk.OnSample(At(10, 1, 100));
  walk.OnSample(At(1010, 11, 100));
  walk.OnSample(At(1020, 12, 100));
  walk.OnSample(At(2020, 22, 100));
  SeriesStats w = Named(walk.whole(), "disk.vda.wiops");
  CHECK(w.count == 4);
  CHECK(w.max == doctest::Approx(100));
  CHECK(w.p50 == doctest::Approx(10));
  CHECK(w.p95 == doctest::Approx(10));
  CHECK(w.p99 == doctest::Approx(10));  // 2 s of 2.02 at 10: 99.0 %
}

TEST_CASE("on the grid: the samples of marks and the stop are left out") {
  ReportOptions options;
  StatsWalk walk({.split = true, .grid = true}, options);
  // Ticks each second; a mark at 1.5 s and the stop at 3.2 s take samples
  // between them: 10, 40, 20, 10 and 150 IO/s over the five intervals, but
  // 10, 30 and 10 over the three ticks.
  walk.OnSample(At(0, 0, 100));
  walk.OnSample(At(1000, 10, 100));
  walk.OnSample(At(1500, 30, 100));
  walk.OnEvent(Event("mark", 1500, "q1"));
  walk.OnSample(At(2000, 40, 100));
  walk.OnSample(At(3000, 50, 100));
  walk.OnSample(At(3200, 80, 100));
  walk.OnEvent(Event("end", 3200));
  walk.Finish();
  const SpanStats& whole = walk.whole();
  CHECK(whole.grid());
  CHECK(whole.intervals() == 3);
  CHECK(whole.left_out() == 2);
  SeriesStats w = Named(whole, "disk.vda.wiops");
  CHECK(w.max == doctest::Approx(30));
  CHECK(w.max_ns == 2 * kSecond);
  CHECK(w.mean == doctest::Approx(50.0 / 3));
  // The tick interval the mark cut belongs to the phase the mark opens.
  REQUIRE(walk.phases().size() == 2);
  CHECK(walk.phases()[0].intervals() == 1);
  CHECK(walk.phases()[1].intervals() == 2);
  CHECK(Named(walk.phases()[1], "disk.vda.wiops").max == doctest::Approx(30));
  std::string text;
  AppendStatsText(text, whole);
  CHECK(text.starts_with("* Statistics over 3 intervals of the sampling grid, 2 samples of "
                         "marks, pauses and the stop left out\n"));
}

TEST_CASE("on the grid: a recording cut short keeps its last tick") {
  ReportOptions options;
  StatsWalk walk({.grid = true}, options);
  walk.OnSample(At(0, 0, 100));
  walk.OnSample(At(1000, 10, 100));
  walk.OnSample(At(2000, 40, 100));  // no trailer follows: the recorder was killed
  walk.Finish();
  CHECK(walk.whole().intervals() == 2);
  CHECK(walk.whole().left_out() == 0);
  CHECK(Named(walk.whole(), "disk.vda.wiops").max == doctest::Approx(30));
}

TEST_CASE("levels: every sample, the first included; the plain mean") {
  ReportOptions options;
  StatsWalk walk({}, options);
  walk.OnSample(At(0, 0, 100));
  walk.OnSample(At(1000, 0, 300));
  walk.OnSample(At(3000, 0, 900));
  walk.OnSample(At(4000, 0, 200));
  SeriesStats used = Named(walk.whole(), "mem.used");
  CHECK(used.level);
  CHECK(used.unit == "MiB");
  CHECK(used.count == 4);
  CHECK(used.mean == doctest::Approx(375.0));  // (100+300+900+200)/4
  CHECK(used.min == 100);                      // the first sample's
  CHECK(used.max == 900);
  CHECK(used.max_ns == 3 * kSecond);
  CHECK(used.p50 == 200);  // the 2nd of 100 200 300 900
  CHECK(Named(walk.whole(), "mem.available").min == 1024 - 900);
}

TEST_CASE("CPU: all cores in percent of one core, and the busiest core per interval") {
  ReportOptions options;
  StatsWalk walk({}, options);
  walk.OnSample(At(0, 0, 0, 0));
  walk.OnSample(At(1000, 0, 0, 25));   // core 0: 25 of 100 ticks
  walk.OnSample(At(2000, 0, 0, 125));  // core 0: 100 of 100
  SeriesStats busy = Named(walk.whole(), "cpu.all.busy");
  CHECK(busy.min == doctest::Approx(25.0));
  CHECK(busy.max == doctest::Approx(100.0));
  CHECK(busy.mean == doctest::Approx(62.5));
  SeriesStats core = Named(walk.whole(), "cpu.busiest_core.busy");
  CHECK(core.max == doctest::Approx(100.0));
  CHECK(core.max_ns == 2 * kSecond);
  CHECK(Named(walk.whole(), "cpu.all.idle").min == doctest::Approx(100.0));
}

TEST_CASE("no pair spans a pause; a sample 2 ms after another makes a pair too") {
  ReportOptions options;
  StatsWalk walk({}, options);
  walk.OnSample(At(0, 0, 0, 0));
  walk.OnSample(At(1000, 10, 0, 10));
  walk.OnSample(At(1002, 10, 0, 10));  // 2 ms later, no tick: CPU has no value
  walk.OnEvent(Event("pause", 1500));
  walk.OnEvent(Event("resume", 5000));
  walk.OnSample(At(5000, 1000, 0, 20));
  walk.OnSample(At(7000, 1020, 0, 30));
  CHECK(walk.whole().intervals() == 3);  // 0->1 s, 1->1.002 s and 5->7 s
  SeriesStats w = Named(walk.whole(), "disk.vda.wiops");
  CHECK(w.max == 10);  // not the 990 writes of the pause
  CHECK(w.min == 0);   // none in those 2 ms
  CHECK(w.mean == doctest::Approx(30.0 / 3.002));  // weighted by time
  CHECK(Named(walk.whole(), "cpu.all.busy").count == 2);  // the 2 ms measured no CPU time
}

TEST_CASE("phases: the pair ending at the mark's sample is the phase the mark ends") {
  ReportOptions options;
  StatsWalk walk({.split = true}, options);
  walk.OnSample(At(0, 0, 100));
  walk.OnSample(At(1000, 10, 200));
  walk.OnSample(At(2000, 20, 700));
  walk.OnEvent(Event("mark", 2000, "q1"));
  walk.OnSample(At(3000, 120, 300));
  REQUIRE(walk.phases().size() == 2);
  const SpanStats& start = walk.phases()[0];
  const SpanStats& q1 = walk.phases()[1];
  CHECK(start.intervals() == 2);
  CHECK(q1.intervals() == 1);
  CHECK(Named(start, "disk.vda.wiops").max == 10);
  CHECK(Named(q1, "disk.vda.wiops").max == 100);
  CHECK(Named(q1, "disk.vda.wiops").max_ns == 3 * kSecond);
  // The mark's sample opens the phase: its memory counts in both.
  CHECK(Named(start, "mem.used").max == 700);
  CHECK(Named(q1, "mem.used").max == 700);
  CHECK(Named(q1, "mem.used").min == 300);
  CHECK(Named(walk.whole(), "disk.vda.wiops").max == 100);
}

TEST_CASE("the text block and the JSON member") {
  ReportOptions options;
  StatsWalk walk({}, options);
  walk.OnSample(At(10'000, 0, 100));  // the origin: times count from here
  walk.OnSample(At(11'000, 10, 300));
  walk.OnSample(At(13'000, 30, 900));
  walk.OnSample(At(14'000, 70, 200));
  std::string text;
  AppendStatsText(text, walk.whole());
  CHECK(text.starts_with("* Statistics over 3 intervals (rates time-weighted; "
                         "p50/p95/p99 nearest rank)\n  series"));
  CHECK(text.find("\n  disk.vda.wiops         IO/s           17.50       10.00       40.00"
                  "       4.000       10.00       40.00       40.00\n") != std::string::npos);
  // Names padded to the longest, cpu.busiest_core.busy (21).
  CHECK(text.ends_with("\n\n"));

  std::string json = "{\"x\":0";
  AppendStatsJson(json, walk.whole());
  json.push_back('}');
  const test::Json doc(json);
  const test::JsonValue& stats = doc.root()["stats"];
  CHECK(int64_t(stats["intervals"]) == 3);
  const test::JsonValue& w = stats["series"]["disk.vda.wiops"];
  CHECK(std::string_view(w["unit"]) == "IO/s");
  CHECK(std::string_view(w["kind"]) == "rate");
  CHECK(double(w["mean"]) == 17.5);
  CHECK(double(w["max_elapsed"]) == 4.0);
  CHECK(std::string_view(w["max_time"]) == "1970-01-01T00:00:14.000000Z");
  CHECK(double(w["p95"]) == 40.0);
  CHECK(std::string_view(stats["series"]["mem.used"]["kind"]) == "level");
}

TEST_CASE("summary: --stats adds its block; without it nothing changes") {
  ReportOptions options;
  StatsWalk walk({}, options);
  RawSample a = At(0, 0, 100), b = At(1000, 10, 300);
  walk.OnSample(a);
  walk.OnSample(b);
  SummaryInput in;
  in.first = &a;
  in.last = &b;
  const std::string plain = SummaryText(in), plain_json = SummaryJson(in);
  in.stats = &walk.whole();
  const std::string with = SummaryText(in), with_json = SummaryJson(in);
  CHECK(with.starts_with(plain));
  CHECK(with.find("* Statistics over 1 interval ") == plain.size());
  CHECK(with_json.find(",\"stats\":{\"intervals\":1,") == plain_json.size() - 2);
}

// A reader refills one RawSample from line to line (native_reader.hh),
// and the walk knows a series again by where its name's parts are: a row
// renamed in place, at the same address, is another series all the same.
TEST_CASE("one sample refilled in place: a renamed row starts its own series") {
  ReportOptions options;
  StatsWalk walk({}, options);
  RawSample s = At(0, 0, 0);
  MemberRows& disk = test::Member(s, "disk");
  auto next = [&](int64_t t_ms, uint64_t writes) {
    s.time_ns = t_ms * 1'000'000;
    disk.values[4] = writes;
    disk.values[6] = writes * 8;
    disk.values[7] = writes * 2;
    walk.OnSample(s);
  };
  walk.OnSample(s);
  next(1000, 10);
  next(2000, 30);
  const char* at = disk.names[0].data();
  disk.names[0] = "vdb";
  REQUIRE(disk.names[0].data() == at);
  next(3000, 40);
  next(4000, 100);
  next(5000, 190);
  const SeriesStats a = Named(walk.whole(), "disk.vda.wiops");
  const SeriesStats b = Named(walk.whole(), "disk.vdb.wiops");
  CHECK(a.count == 2);
  CHECK(a.max == 20);
  CHECK(b.count == 2);
  CHECK(b.min == 60);
  CHECK(b.max == 90);
}

}  // TEST_SUITE

}  // namespace
}  // namespace pm
