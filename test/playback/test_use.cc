// summary --use on synthetic intervals: each rule, the thresholds, the
// bursts and the verdict, worked out by hand.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "playback/statistics/use_output.hh"
#include "playback/statistics/use_span.hh"

namespace pm {
namespace {

struct Series {
  const char *a, *b, *field, *unit;
  double v;
};

// One 10 ms interval with these series.
void Interval(UseSpan& span, std::vector<Series> series, double seconds = 0.01) {
  span.AddInterval(seconds, [&](StatRow& row) {
    for (const Series& s : series) row.Rate(s.a, s.b, s.field, s.unit, s.v);
  });
}

const UseResource* Named(const std::vector<UseResource>& all, std::string_view name) {
  for (const UseResource& r : all)
    if (r.name == name) return &r;
  return nullptr;
}

// The verdict as the text block ends with it, without "USE verdict: ".
std::string VerdictInText(const UseSpan& span) {
  std::string text;
  AppendUseText(text, span);
  const std::string_view tag = "USE verdict: ";
  const size_t at = text.rfind(tag);
  REQUIRE(at != std::string::npos);
  return text.substr(at + tag.size(), text.find('\n', at) - at - tag.size());
}

const UseSignal* Row(const UseResource& r, std::string_view label) {
  for (const UseSignal& s : r.signals)
    if (s.label == label) return &s;
  return nullptr;
}

TEST_SUITE("use") {
TEST_CASE("disk bursts: count, longest, shortest, and the verdict names them") {
  UseSpan span(UseThresholds{}, 2);
  // 3 bursts of 20, 30 and 20 ms at 100 % busy between idle stretches.
  for (int n : {2, 3, 2}) {
    for (int i = 0; i < n; ++i) Interval(span, {{"disk", "vda", "util", "%", 100}, {"disk", "vda", "qlen", "requests", 1}});
    for (int i = 0; i < 5; ++i) Interval(span, {{"disk", "vda", "util", "%", 0}});
  }
  const auto all = span.Results();
  const UseResource* vda = Named(all, "disk vda");
  REQUIRE(vda);
  CHECK(vda->bursts.count == 3);
  CHECK(vda->bursts.longest == doctest::Approx(0.030));
  CHECK(vda->bursts.shortest == doctest::Approx(0.020));
  CHECK(vda->saturated == doctest::Approx(100.0 * 7 / 22));
  CHECK(Row(*vda, "busy")->over == doctest::Approx(100.0 * 7 / 22));
  CHECK(Row(*vda, "aqu-sz")->over == 0);  // 1 is not past --use-queue 1
  CHECK(UseVerdict(span) == VerdictInText(span));  // plot --report's, the text's
  CHECK(UseBinding(span) == "disk vda");
  CHECK(VerdictInText(span) ==
        "disk vda: saturated 31.8 % of the time, in 3 bursts of 20 to 30 ms; busy p99 100.00 %");
}

// A disk busy (1) or quiet (0) in each 10 ms interval.
UseBursts DiskBursts(const UseThresholds& t, std::string_view pattern) {
  UseSpan span(t, 1);
  for (char c : pattern) Interval(span, {{"disk", "vda", "util", "%", c == '1' ? 100.0 : 0.0}});
  const auto all = span.Results();
  const UseResource* vda = Named(all, "disk vda");
  REQUIRE(vda);
  return vda->bursts;
}

UseThresholds Gap(double seconds) {
  UseThresholds t;
  t.gap = seconds;
  return t;
}

TEST_CASE("gap: a 200 ms burst with one quiet sample inside counts once, its length whole") {
  const std::string burst = std::string(10, '1') + "0" + std::string(9, '1');
  const UseBursts b = DiskBursts(UseThresholds{}, std::string(10, '0') + burst + std::string(10, '0'));
  CHECK(b.count == 1);
  CHECK(b.longest == doctest::Approx(0.200));
  CHECK(b.shortest == doctest::Approx(0.200));
  const UseBursts split = DiskBursts(Gap(0), "00" + burst + "00");
  CHECK(split.count == 2);
  CHECK(split.longest == doctest::Approx(0.100));
  CHECK(split.shortest == doctest::Approx(0.090));
}

TEST_CASE("gap: a quiet stretch as long as the gap ends the burst, a shorter one does not") {
  CHECK(DiskBursts(UseThresholds{}, "11" "00000" "11").count == 2);  // 50 ms: not under 50 ms
  const UseBursts joined = DiskBursts(UseThresholds{}, "11" "0000" "11");
  CHECK(joined.count == 1);
  CHECK(joined.longest == doctest::Approx(0.080));
  CHECK(DiskBursts(Gap(0.1), "11" "000000000" "11").count == 1);
  CHECK(DiskBursts(Gap(0.1), "11" "0000000000" "11").count == 2);
}

TEST_CASE("gap: bursts at the start and at the end; trailing quiet time is no part of one") {
  const UseBursts b = DiskBursts(UseThresholds{}, "111" "0000000000" "11" "00");
  CHECK(b.count == 2);
  CHECK(b.longest == doctest::Approx(0.030));
  CHECK(b.shortest == doctest::Approx(0.020));
  const UseBursts end = DiskBursts(UseThresholds{}, "0000000" "1" "000");  // still open at the end
  CHECK(end.count == 1);
  CHECK(end.longest == doctest::Approx(0.010));
  CHECK(DiskBursts(Gap(0), "1").count == 1);
  CHECK(DiskBursts(Gap(0), "0000").count == 0);
}

TEST_CASE("gap: the saturated share counts saturated intervals only, not the gap inside a burst") {
  UseSpan span(UseThresholds{}, 1);
  for (double v : {100.0, 0.0, 100.0, 0.0}) Interval(span, {{"disk", "vda", "util", "%", v}});
  const auto all = span.Results();
  CHECK(Named(all, "disk vda")->saturated == doctest::Approx(50));
  CHECK(Named(all, "disk vda")->bursts.longest == doctest::Approx(0.030));
}

TEST_CASE("gap: the heading says how stretches join") {
  for (auto [gap, text] : {std::pair{0.05, "; saturated stretches under 50 ms apart are one burst)"},
                           {0.0025, "; saturated stretches under 2.5 ms apart are one burst)"},
                           {0.0, "; each saturated stretch is a burst)"}}) {
    const std::string want = text;
    UseSpan span(Gap(gap), 1);
    Interval(span, {{"cpu", "all", "busy", "%", 100}});
    std::string out;
    AppendUseText(out, span);
    CHECK(out.find(want) != std::string::npos);
  }
}

TEST_CASE("gap: a pause ends a burst whatever the gap") {
  UseSpan span(Gap(10), 1);
  Interval(span, {{"cpu", "all", "busy", "%", 100}});
  Interval(span, {{"cpu", "all", "busy", "%", 0}});
  span.First();
  Interval(span, {{"cpu", "all", "busy", "%", 100}});
  CHECK(Named(span.Results(), "CPU")->bursts.count == 2);
}

TEST_CASE("a pause or a segment start ends a burst") {
  UseSpan span(UseThresholds{}, 1);
  Interval(span, {{"cpu", "all", "busy", "%", 100}});
  span.First();
  Interval(span, {{"cpu", "all", "busy", "%", 100}});
  CHECK(Named(span.Results(), "CPU")->bursts.count == 2);
}

TEST_CASE("CPU: all CPUs' busy share over the CPU count; run queue beyond it") {
  UseSpan span(UseThresholds{}, 4);
  Interval(span, {{"cpu", "all", "busy", "%", 200}, {"load", "", "runnable", "tasks", 4}});
  Interval(span, {{"cpu", "all", "busy", "%", 200}, {"load", "", "runnable", "tasks", 6}});
  const auto all = span.Results();
  const UseResource* cpu = Named(all, "CPU");
  REQUIRE(cpu);
  CHECK(Row(*cpu, "busy")->mean == doctest::Approx(50));
  CHECK(Row(*cpu, "run queue beyond the CPUs")->max == doctest::Approx(2));
  CHECK(cpu->saturated == doctest::Approx(50));  // the second interval only
  CHECK(cpu->missing == std::vector<std::string>{"S: --record-pressure for PSI cpu"});
}

TEST_CASE("thresholds: PSI, busy, queue and share are the options'") {
  UseThresholds t;
  t.busy = 80;
  t.psi = 50;
  t.queue = 4;
  t.share = 60;
  UseSpan span(t, 1);
  Interval(span, {{"cpu", "all", "busy", "%", 85}, {"pressure", "memory", "some", "%", 40},
                  {"disk", "sda", "util", "%", 10}, {"disk", "sda", "qlen", "requests", 5}});
  Interval(span, {{"cpu", "all", "busy", "%", 10}, {"pressure", "memory", "some", "%", 60},
                  {"disk", "sda", "util", "%", 10}, {"disk", "sda", "qlen", "requests", 3}});
  const auto all = span.Results();
  CHECK(Named(all, "CPU")->saturated == doctest::Approx(50));
  CHECK(Named(all, "memory")->saturated == doctest::Approx(50));
  CHECK(Named(all, "disk sda")->saturated == doctest::Approx(50));
  CHECK(UseVerdict(span) == VerdictInText(span));  // plot --report's, the text's
  CHECK(UseBinding(span).empty());
  CHECK(VerdictInText(span) == "no resource saturated (CPU 47.50 %)");  // 50 % < --use-share 60
}

TEST_CASE("memory: swapping and direct reclaim saturate, OOM kills are counted, in use does not") {
  UseSpan span(UseThresholds{}, 1);
  Interval(span, {{"mem", "", "in_use", "%", 99}, {"vmstat", "", "pswpoutps", "pages/s", 0},
                  {"vmstat", "", "oom_kills", "per interval", 1}});
  Interval(span, {{"mem", "", "in_use", "%", 99}, {"vmstat", "", "pgscandps", "pages/s", 500},
                  {"vmstat", "", "oom_kills", "per interval", 2}});
  const auto all = span.Results();
  const UseResource* mem = Named(all, "memory");
  REQUIRE(mem);
  CHECK(mem->saturated == doctest::Approx(50));
  CHECK(Row(*mem, "OOM kills")->total == doctest::Approx(3));
  CHECK(Row(*mem, "direct reclaim")->over == doctest::Approx(50));
  CHECK(mem->missing == std::vector<std::string>{"S: --record-pressure for PSI memory"});
}

TEST_CASE("verdict: every error counted is named, saturated or not") {
  UseSpan span(UseThresholds{}, 1);
  Interval(span, {{"vmstat", "", "oom_kills", "per interval", 2},
                  {"netstat", "tcp", "orstsps", "/s", 300}});
  CHECK(UseVerdict(span) ==
        "no resource saturated; errors: memory OOM kills 2, TCP resets sent 3");
  CHECK(UseVerdict(span) == VerdictInText(span));
  UseSpan quiet(UseThresholds{}, 1);
  Interval(quiet, {{"vmstat", "", "oom_kills", "per interval", 0}});
  CHECK(UseVerdict(quiet) == "no resource saturated");
}

TEST_CASE("disk await against its own await at low load") {
  UseSpan span(UseThresholds{}, 1);
  Interval(span, {{"disk", "vda", "wlatency", "ms", 0.5}, {"disk", "vda", "util", "%", 10}});
  Interval(span, {{"disk", "vda", "wlatency", "ms", 40}, {"disk", "vda", "util", "%", 100}});
  const auto all = span.Results();  // kept: the row points into it
  const UseSignal* w = Row(*Named(all, "disk vda"), "w_await");
  CHECK(w->baseline == doctest::Approx(0.5));
  CHECK(w->max == doctest::Approx(40));
}

TEST_CASE("network: drops saturate, errors and resets are counted, total rows skipped") {
  UseSpan span(UseThresholds{}, 1);
  Interval(span, {{"net", "eth0", "dropps", "packets/s", 100}, {"net", "eth0", "errps", "packets/s", 200},
                  {"net", "total", "dropps", "packets/s", 100},
                  {"netstat", "tcp", "retransps", "/s", 0}, {"netstat", "tcp", "orstsps", "/s", 300}});
  const auto all = span.Results();
  const UseResource* eth0 = Named(all, "net eth0");
  REQUIRE(eth0);
  CHECK(eth0->saturated == doctest::Approx(100));
  CHECK(Row(*eth0, "drops")->total == doctest::Approx(1));
  CHECK(Row(*eth0, "errors")->total == doctest::Approx(2));
  CHECK(Named(all, "net total") == nullptr);
  CHECK(Row(*Named(all, "TCP"), "resets sent")->total == doctest::Approx(3));
  CHECK(Named(all, "TCP")->saturated == 0);
}

TEST_CASE("cgroups: throttling and PSI saturate a group; its path keeps its dots") {
  UseSpan span(UseThresholds{}, 1);
  Interval(span, {{"cgroups", "a.slice/b", "cpu", "%", 50}, {"cgroups", "a.slice/b", "throttled", "%", 20}});
  Interval(span, {{"cgroups", "a.slice/b", "cpu", "%", 50},
                  {"cgroups", "a.slice/b", "pressure_memory_some", "%", 30}});
  const auto all = span.Results();  // kept: g points into it
  const UseResource* g = Named(all, "cgroup a.slice/b");
  REQUIRE(g);
  CHECK(g->saturated == doctest::Approx(100));
  CHECK(g->bursts.count == 1);
}

TEST_CASE("text: the block, the missing flags, the verdict") {
  UseSpan span(UseThresholds{}, 2);
  Interval(span, {{"cpu", "all", "busy", "%", 200}});
  std::string out;
  AppendUseText(out, span);
  CHECK(out.find("  CPU: saturated 100.0 % of the time, in 1 burst of 10 ms\n") != std::string::npos);
  CHECK(out.find("    S: --record-load for the run queue\n") != std::string::npos);
  CHECK(out.find("USE verdict: CPU: saturated 100.0 % of the time, in 1 burst of 10 ms; busy p99 100.00 %\n") !=
        std::string::npos);
}
}

}  // namespace
}  // namespace pm
