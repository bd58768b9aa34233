// The machine's CPU from the finest recorded source (playback/reports/cpu_report.hh):
// hand-built pairs with cpu_fine rows and the header's sources, through
// play's JSON, CSV and summary; a pair that measured nothing is null in
// the cpu fields only, and a legacy recording keeps PerfMonger's zeros.
#include <doctest/doctest.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "playback/reports/cpu_report.hh"
#include "playback/outputs/export_csv.hh"
#include "playback/outputs/play_json.hh"
#include "playback/statistics/span_stats.hh"
#include "playback/outputs/summary.hh"
#include "test/playback/csv_paths.hh"
#include "test/playback/rates_test_util.hh"
#include "proto/columns/cpu.hh"
#include "proto/columns/mem.hh"

namespace pm::test {
namespace {

constexpr int64_t kMs = 1'000'000;
using Fine = std::array<uint64_t, kCpuFineFields.size()>;  // busy user nice system idle delay
using OptFine = std::optional<Fine>;

// A native sample: /proc/stat's rows (all, core 0, core 1), cpu_fine's
// rows (nullopt: null), mem's MemFree.
RawSample Sample(int64_t mono_ms, const CpuCounters& all, const CpuCounters& c0,
                 const CpuCounters& c1, std::vector<OptFine> fine, uint64_t mem_free = 100) {
  RawSample s = At(1'700'000'000 * kSec + mono_ms * kMs);
  s.mono_ns = 5 * kSec + mono_ms * kMs;
  SetCpu(s, all, {c0, c1});
  const char* names[] = {"all", "0", "1"};
  for (size_t i = 0; i < fine.size(); ++i)
    AddRow(s, "cpu_fine", names[i], fine[i].value_or(Fine{}), fine[i].has_value());
  std::array<uint64_t, kMemFields.size()> mem{};
  mem[1] = mem_free;
  AddRow(s, "mem", "", mem);
  return s;
}

SeriesSource Source(std::vector<std::string> fields, std::vector<std::string> rows,
                    std::string file, int64_t resolution_ns) {
  return {MemberIndexOf("cpu_fine"), std::move(fields), std::move(rows), std::move(file),
          resolution_ns};
}

RecordingInfo WithSources(std::vector<SeriesSource> sources) {
  RecordingInfo info;
  info.format = "perfmonger-pgr";
  info.sources = std::move(sources);
  return info;
}

const RecordingInfo kCgroup = WithSources({Source({"busy_ns", "user_ns", "system_ns"}, {"all"},
                                                  "/sys/fs/cgroup/unified/cpu.stat", 4 * kMs)});
const RecordingInfo kSchedstat =
    WithSources({Source({"busy_ns", "run_delay_ns"}, {"all", "cores"}, "/proc/schedstat", 1)});
const RecordingInfo kCpuidle = WithSources(
    {Source({"idle_ns"}, {"all", "cores"}, "/sys/devices/system/cpu/cpu*/cpuidle/state*/time",
            1000)});

std::string Play(const RawSample& a, const RawSample& b, const RecordingInfo* info,
                 bool legacy = false) {
  ReportOptions options;
  options.info = info;
  options.legacy = legacy;
  std::string out;
  AppendPlayJson(out, Pair(a, b, {}, options));
  return out;
}

std::string Cpu(const std::string& line, const char* part) {
  return PlayMember(PlayMember(line, "cpu"), part);
}

constexpr const char* kNullCore =
    R"({"usr":null,"nice":null,"sys":null,"idle":null,"iowait":null,"hardirq":null,)"
    R"("softirq":null,"steal":null,"guest":null,"guestnice":null})";

std::string Core(const char* usr, const char* sys, const char* idle) {
  return std::string(R"({"usr":)") + usr + R"(,"nice":0.00,"sys":)" + sys + R"(,"idle":)" +
         idle + R"(,"iowait":0.00,"hardirq":0.00,"softirq":0.00,"steal":0.00,"guest":0.00,)"
                R"("guestnice":0.00})";
}

// The cgroup root's counters at the start, and after each step.
const Fine kFine0 = {1000 * kMs, 700 * kMs, 0, 300 * kMs, 0, 0};
Fine Plus(Fine f, uint64_t user_ms, uint64_t system_ms) {
  f[0] += (user_ms + system_ms) * kMs;
  f[1] += user_ms * kMs;
  f[3] += system_ms * kMs;
  return f;
}

}  // namespace

TEST_SUITE("cpu_fine") {

TEST_CASE("the cgroup root's time rates row all; the cores keep their ticks") {
  // 10 ms; the cgroup root counted 6 ms user and 2 ms system of 20 ms.
  RawSample a = Sample(0, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {kFine0, std::nullopt, std::nullopt});
  RawSample b = Sample(10, {101, 0, 50, 801}, {51, 0, 25, 400}, {50, 0, 25, 401},
                       {Plus(kFine0, 6, 2), std::nullopt, std::nullopt});
  const std::string line = Play(a, b, &kCgroup);
  CHECK(Cpu(line, "all") == Core("60.00", "20.00", "120.00"));
  CHECK(PlayMember(PlayMember(line, "cpu"), "cores") ==
        "[" + Core("100.00", "0.00", "0.00") + "," + Core("0.00", "0.00", "100.00") + "]");
  // Without the sources (an older reader's view), the ticks alone: 100/100.
  CHECK(Cpu(Play(a, b, nullptr), "all") == Core("100.00", "0.00", "100.00"));
}

TEST_CASE("a pair in which nothing was measured: null in the cpu fields only") {
  RawSample a = Sample(0, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {kFine0, std::nullopt, std::nullopt}, 100);
  RawSample b = Sample(1, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {kFine0, std::nullopt, std::nullopt}, 90);
  for (const RecordingInfo* info : {&kCgroup, static_cast<const RecordingInfo*>(nullptr)}) {
    const std::string line = Play(a, b, info);
    CHECK(Cpu(line, "all") == kNullCore);
    CHECK(PlayMember(PlayMember(line, "cpu"), "cores") ==
          std::string("[") + kNullCore + "," + kNullCore + "]");
    CHECK(PlayMember(PlayMember(line, "mem"), "mem_free") == "90");  // the others stand
    CHECK(PlayMember(PlayMember(line, "cpu"), "num_core") == "2");
  }
  // CSV: the cells stay empty, the row keeps its shape.
  CsvExport csv;
  ReportOptions options;
  options.info = &kCgroup;
  std::string text;
  csv.AppendRow(text, Pair(a, b, {}, options));
  const size_t eol = text.find("\r\n");
  REQUIRE(eol != std::string::npos);
  const std::vector<std::string> head = SplitCsv(text.substr(0, eol));
  const std::vector<std::string> row = SplitCsv(text.substr(eol + 2, text.size() - eol - 4));
  REQUIRE(head.size() == row.size());
  size_t cpu_cells = 0;
  for (size_t i = 0; i < head.size(); ++i) {
    CAPTURE(head[i]);
    if (head[i].starts_with("cpu.")) {
      CHECK(row[i].empty());
      ++cpu_cells;
    } else if (head[i] == "mem.mem_free") {
      CHECK(row[i] == "90");
    }
  }
  CHECK(cpu_cells == 30);
  // PerfMonger's recordings keep its zeros.
  CHECK(Cpu(Play(a, b, nullptr, true), "all") == Core("0.00", "0.00", "0.00"));
}

TEST_CASE("--stats: a pair that measured nothing gives the cpu series no value") {
  RawSample a = Sample(0, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {kFine0, std::nullopt, std::nullopt});
  RawSample b = Sample(10, {101, 0, 50, 801}, {51, 0, 25, 400}, {50, 0, 25, 401},
                       {Plus(kFine0, 6, 2), std::nullopt, std::nullopt});
  RawSample c = Sample(11, {101, 0, 50, 801}, {51, 0, 25, 400}, {50, 0, 25, 401},
                       {Plus(kFine0, 6, 2), std::nullopt, std::nullopt});
  ReportOptions options;
  options.info = &kCgroup;
  SpanStats stats;
  stats.First(a, options);
  stats.Add(Pair(a, b, {}, options));
  stats.Add(Pair(b, c, {}, options));
  size_t cpu_series = 0;
  for (const SeriesStats& s : stats.Results()) {
    CAPTURE(s.name);
    if (s.name.starts_with("cpu.")) {
      ++cpu_series;
      CHECK(s.count == 1);  // the first pair's alone
    }
  }
  CHECK(cpu_series > 0);
  for (const SeriesStats& s : stats.Results())
    if (s.name == "cpu.all.busy") CHECK(s.max == doctest::Approx(80.0));
}

TEST_CASE("no tick, but the cgroup root's time moved: row all measured, cores null") {
  RawSample a = Sample(0, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {kFine0, std::nullopt, std::nullopt});
  RawSample b = Sample(5, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {Plus(kFine0, 4, 0), std::nullopt, std::nullopt});
  const std::string line = Play(a, b, &kCgroup);
  CHECK(Cpu(line, "all") == Core("80.00", "0.00", "120.00"));  // 4 of 10 ms, ×2 cores
  CHECK(PlayMember(PlayMember(line, "cpu"), "cores") ==
        std::string("[") + kNullCore + "," + kNullCore + "]");
}

TEST_CASE("schedstat: each core's busy time; a run not yet ended falls back to ticks") {
  auto run = [](uint64_t ms) { return Fine{ms * kMs, 0, 0, 0, 0, 0}; };
  RawSample a = Sample(0, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {run(10), run(5), run(5)});
  // Core 0 ran 3 ms of 10 (no tick); core 1's counter stood while a tick
  // said it worked (schedstat adds a run when it ends).
  RawSample b = Sample(10, {101, 0, 50, 800}, {50, 0, 25, 400}, {51, 0, 25, 400},
                       {run(13), run(8), run(5)});
  const std::string line = Play(a, b, &kSchedstat);
  CHECK(PlayMember(PlayMember(line, "cpu"), "cores") ==
        "[" + Core("30.00", "0.00", "70.00") + "," + Core("100.00", "0.00", "0.00") + "]");
  CHECK(Cpu(line, "all") == Core("30.00", "0.00", "170.00"));  // 3 of 20 ms
  // More than the interval (a long run ended in it) is the whole interval.
  RawSample c = Sample(20, {101, 0, 50, 800}, {50, 0, 25, 400}, {51, 0, 25, 400},
                       {run(38), run(33), run(5)});
  CHECK(PlayMember(PlayMember(Play(b, c, &kSchedstat), "cpu"), "cores").starts_with(
      "[" + Core("100.00", "0.00", "0.00")));
}

TEST_CASE("cpuidle: busy is the interval less the idle time, split by the ticks") {
  auto idle = [](uint64_t ms) { return Fine{0, 0, 0, 0, ms * kMs, 0}; };
  RawSample a = Sample(0, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {idle(0), idle(0), idle(0)});
  RawSample b = Sample(10, {100, 0, 51, 800}, {50, 0, 26, 400}, {50, 0, 25, 400},
                       {idle(16), idle(6), idle(10)});
  const std::string line = Play(a, b, &kCpuidle);
  CHECK(PlayMember(PlayMember(line, "cpu"), "cores") ==
        "[" + Core("0.00", "40.00", "60.00") + "," + Core("0.00", "0.00", "100.00") + "]");
  CHECK(Cpu(line, "all") == Core("0.00", "40.00", "160.00"));
}

TEST_CASE("every mode adds up to 100 per core, whatever the source") {
  RawSample a = Sample(0, {100, 3, 50, 800, 7, 1, 2, 0}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {kFine0, std::nullopt, std::nullopt});
  RawSample b = Sample(13, {104, 4, 52, 803, 9, 2, 4, 0}, {52, 0, 25, 400}, {50, 0, 25, 401},
                       {Plus(kFine0, 11, 7), std::nullopt, std::nullopt});
  ReportOptions options;
  options.info = &kCgroup;
  const Pair p(a, b, {}, options);
  const CpuUsage u = AllUsage(p);
  CHECK(u.usr + u.nice + u.sys + u.idle + u.iowait + u.hardirq + u.softirq + u.steal ==
        doctest::Approx(200.0));
  CHECK(u.usr + u.nice == doctest::Approx(11.0 / 26 * 200));
  CHECK(u.sys + u.hardirq + u.softirq == doctest::Approx(7.0 / 26 * 200));
}

TEST_CASE("CpuResolutionNs and CpuSourceText: the finest named source, else /proc/stat") {
  CHECK(CpuResolutionNs(nullptr) == 10 * kMs);
  CHECK(CpuResolutionNs(&kCgroup) == 4 * kMs);
  CHECK(CpuResolutionNs(&kSchedstat) == 1);
  CHECK(CpuSourceText(nullptr) ==
        "/proc/stat, 10 ms (no cgroup2 cpu.stat, no /proc/schedstat, no cpuidle)");
  CHECK(CpuSourceText(&kCgroup) ==
        "cgroup2 cpu.stat, 4 ms; cores: /proc/stat, 10 ms (no /proc/schedstat, no cpuidle)");
  CHECK(CpuSourceText(&kCpuidle) == "cpuidle, 1 µs (no cgroup2 cpu.stat, no /proc/schedstat)");
}

TEST_CASE("summary: the source named; a span shorter than the resolution so marked") {
  RawSample a = Sample(0, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {kFine0, std::nullopt, std::nullopt});
  RawSample b = Sample(3, {101, 0, 50, 800}, {51, 0, 25, 400}, {50, 0, 25, 400},
                       {Plus(kFine0, 4, 0), std::nullopt, std::nullopt});
  SummaryInput in;
  in.first = &a;
  in.last = &b;
  in.info = &kCgroup;
  const std::string text = SummaryText(in);
  CHECK(text.find("      %idle: 66.67 %\n"
                  "  * shorter than the CPU time's resolution (4.000 ms; the span is "
                  "3.000 ms): at most that precise\n"
                  "  * CPU time: cgroup2 cpu.stat, 4 ms; cores: /proc/stat, 10 ms "
                  "(no /proc/schedstat, no cpuidle)\n\n") != std::string::npos);
  const std::string json = SummaryJson(in);
  CHECK(json.find(R"("source":"cgroup2 cpu.stat, 4 ms; cores: /proc/stat, 10 ms )") !=
        std::string::npos);
  CHECK(json.find(R"("resolution_ns":4000000)") != std::string::npos);
  // Longer than the resolution: no such line.
  RawSample c = Sample(10, {101, 0, 50, 801}, {51, 0, 25, 400}, {50, 0, 25, 401},
                       {Plus(kFine0, 4, 0), std::nullopt, std::nullopt});
  in.last = &c;
  CHECK(SummaryText(in).find("  * Non-idle usage: 40.00 %\n") != std::string::npos);
  CHECK(SummaryText(in).find("shorter than") == std::string::npos);
  // Nothing measured at all: no numbers.
  in.last = &a;
  RawSample d = Sample(1, {100, 0, 50, 800}, {50, 0, 25, 400}, {50, 0, 25, 400},
                       {kFine0, std::nullopt, std::nullopt});
  in.last = &d;
  CHECK(SummaryText(in).find("  * not measured: no CPU time passed in the span\n") !=
        std::string::npos);
  CHECK(SummaryText(in).find("Non-idle") == std::string::npos);
}

}  // TEST_SUITE

}  // namespace pm::test
