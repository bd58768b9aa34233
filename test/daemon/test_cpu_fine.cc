// The machine's CPU time finer than /proc/stat (member "cpu_fine"): the
// /proc/schedstat parser on strings, cpu.stat's resolutions, and the
// cpu collector on fake trees with each source present and absent.
#include <doctest/doctest.h>

#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hh"
#include "daemon/collect/collector_set.hh"
#include "daemon/collect/cpu_fine.hh"
#include "daemon/collect/parse_schedstat.hh"
#include "test/daemon/test_util.hh"

using pm::FormatError;
using pm::ParseSchedstat;
using pm::SchedstatSnapshot;
using pm::test::OpenDir;
using pm::test::TempDir;
using pm::test::WriteFile;

namespace {

// Two cores, as test/data/proc-small's /proc/stat has.
constexpr const char* kSchedstat =
    "version 15\n"
    "timestamp 4295892416\n"
    "cpu0 0 0 1820 610 1061 405 9000000123 2000000007 1210\n"
    "domain0 3 10 10 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
    "cpu1 0 0 900 300 500 200 5000000001 1000000003 600\n"
    "domain0 3 10 10 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

std::string CgroupStat(bool nice, bool twenty_ms) {
  if (twenty_ms)  // every value a multiple of 20 ms
    return "usage_usec 560680000\nuser_usec 423240000\nsystem_usec 137440000\n";
  return std::string("usage_usec 560676000\nuser_usec 423244000\nsystem_usec 137432000\n") +
         (nice ? "nice_usec 4000\n" : "") + "nr_periods 0\n";
}

struct Tree {
  bool cgroup = false, hybrid = false, nice = false, schedstat = false, cpuidle = false;
  bool twenty_ms = false;  // cpu.stat's values
  bool below_root = false;  // the mount is a group below the kernel's root (a cgroup namespace)
};

void Build(const std::filesystem::path& root, const Tree& t) {
  if (t.cgroup) {
    const std::filesystem::path mount = root / (t.hybrid ? "sys/fs/cgroup/unified" : "sys/fs/cgroup");
    WriteFile(mount / "cgroup.controllers", t.hybrid ? "\n" : "cpu io memory\n");
    WriteFile(mount / "cpu.stat", CgroupStat(t.nice, t.twenty_ms));
    if (t.below_root) WriteFile(mount / "cgroup.events", "populated 1\nfrozen 0\n");
  }
  if (t.schedstat) WriteFile(root / "proc/schedstat", kSchedstat);
  if (t.cpuidle)
    for (int core : {0, 1})
      for (int state : {0, 1})
        WriteFile(root / ("sys/devices/system/cpu/cpu" + std::to_string(core) + "/cpuidle/state" +
                          std::to_string(state) + "/time"),
                  std::to_string(1000 * (core + 1) + state) + "\n");
}

struct Recorded {
  std::string header, sample;
};

Recorded Record(const Tree& t) {
  TempDir dir("proc-small");
  Build(dir.path(), t);
  pm::CollectorOptions o;
  o.enabled.assign(o.enabled.size(), false);
  o.on("cpu") = true;
  auto fd = OpenDir(dir.path());
  pm::CollectorSet set(fd.Get(), o);
  std::string line = "{\"t\":1";
  set.AppendSample(line);
  return {set.DescribeJson(), line.substr(6)};
}

std::string FineSample(const Recorded& r) {
  size_t at = r.sample.find(",\"cpu_fine\":");
  return at == std::string::npos ? "" : r.sample.substr(at);
}

std::string FineHeader(const Recorded& r) {
  size_t at = r.header.find(",\"cpu_fine\":");
  return at == std::string::npos ? "" : r.header.substr(at, r.header.size() - 1 - at);
}

}  // namespace

TEST_SUITE("cpu_fine") {

TEST_CASE("ParseSchedstat: versions 15 to 17, the cpu lines' 7th and 8th numbers") {
  for (const char* v : {"15", "16", "17"}) {
    CAPTURE(v);
    SchedstatSnapshot s;
    std::string text = kSchedstat;
    text.replace(8, 2, v);
    ParseSchedstat(text, s);
    CHECK(s.version == std::stoi(v));
    REQUIRE(s.cpus.size() == 2);
    CHECK(s.cpus[0].id == 0);
    CHECK(s.cpus[0].run_ns == 9000000123u);
    CHECK(s.cpus[0].wait_ns == 2000000007u);
    CHECK(s.cpus[1].id == 1);
    CHECK(s.cpus[1].run_ns == 5000000001u);
  }
  SchedstatSnapshot s;  // reused: the cpus of the text before go
  ParseSchedstat("version 17\ntimestamp 1\ncpu7 1 2 3 4 5 6 7 8 9 10 11\n", s);
  REQUIRE(s.cpus.size() == 1);
  CHECK(s.cpus[0].id == 7);
  CHECK(s.cpus[0].run_ns == 7);
  CHECK(s.cpus[0].wait_ns == 8);
}

TEST_CASE("ParseSchedstat: an unknown version or a malformed line names the line") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"", "/proc/schedstat:1: empty"},
      {"version 14\ncpu0 0 0 0 0 0 0 0 0 0 0 0 0\n", "/proc/schedstat:1: schedstat version 14"},
      {"version 18\n", "/proc/schedstat:1: schedstat version 18"},
      {"timestamp 1\nversion 15\n", "/proc/schedstat:1: expected \"version N\""},
      {"version 15\ntimestamp 1\ncpu0 1 2 3 4 5 6 7 8\n", "/proc/schedstat:3: cpu line has 8"},
      {"version 15\ncpu0 1 2 x 4 5 6 7 8 9\n", "/proc/schedstat:2: cpu counters must be"},
      {"version 15\ncpu0x 1 2 3 4 5 6 7 8 9\n", "/proc/schedstat:2: bad cpu name 'cpu0x'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    SchedstatSnapshot s;
    try {
      ParseSchedstat(c.text, s);
      FAIL("no error");
    } catch (const FormatError& e) {
      CHECK(std::string(e.what()).starts_with(c.error));
    }
  }
}

TEST_CASE("KernelTickNs: TICK_NSEC of a whole HZ") {
  const int64_t tick = pm::KernelTickNs();
  const int64_t hz = (1'000'000'000 + tick / 2) / tick;
  CAPTURE(tick);
  CHECK(hz >= 24);  // CONFIG_HZ's range
  CHECK(hz <= 1200);
  CHECK((1'000'000'000 + hz / 2) / hz == tick);  // the kernel's TICK_NSEC
}

TEST_CASE("CgroupCpuSources: the kernel's root in ticks; below it usage in µs, its split in ticks") {
  const std::vector<std::string_view> fields = {"busy_ns", "user_ns", "system_ns", "nice_ns"};
  std::vector<pm::CpuSourceEntry> root = pm::CgroupCpuSources(fields, "/f", true, 4'000'000);
  REQUIRE(root.size() == 1);
  CHECK(root[0].fields == fields);
  CHECK(root[0].resolution_ns == 4'000'000);
  CHECK(root[0].all);
  CHECK_FALSE(root[0].cores);
  std::vector<pm::CpuSourceEntry> below = pm::CgroupCpuSources(fields, "/f", false, 3'333'333);
  REQUIRE(below.size() == 2);
  CHECK(below[0].fields == std::vector<std::string_view>{"busy_ns"});
  CHECK(below[0].resolution_ns == 1000);
  CHECK(below[1].fields == std::vector<std::string_view>{"user_ns", "system_ns", "nice_ns"});
  CHECK(below[1].resolution_ns == 3'333'333);
  CHECK(below[1].file == "/f");
}

TEST_CASE("cpu.stat's resolution is the kernel's tick whatever its values divide by") {
  const std::string tick = std::to_string(pm::KernelTickNs());
  for (bool twenty_ms : {false, true}) {
    CAPTURE(twenty_ms);
    Recorded r = Record({.cgroup = true, .twenty_ms = twenty_ms});
    CHECK(FineHeader(r).find(R"("rows":["all"],"file":"/sys/fs/cgroup/cpu.stat","resolution_ns":)" +
                             tick + "}") != std::string::npos);
  }
  Recorded r = Record({.cgroup = true, .below_root = true});
  CHECK(FineHeader(r).find(R"("sources":[{"fields":["busy_ns"],"rows":["all"],)"
                           R"("file":"/sys/fs/cgroup/cpu.stat","resolution_ns":1000},)"
                           R"({"fields":["user_ns","system_ns"],"rows":["all"],)"
                           R"("file":"/sys/fs/cgroup/cpu.stat","resolution_ns":)" +
                           tick + "}]") != std::string::npos);
  CHECK(FineSample(r) == R"(,"cpu_fine":[[560676000000,423244000000,137432000000],null,null])");
}

TEST_CASE("no finer source: no cpu_fine member, /proc/stat named as the source") {
  Recorded r = Record({});
  CHECK(FineHeader(r).empty());
  CHECK(FineSample(r).empty());
  CHECK(r.header.find(R"("file":"/proc/stat","resolution_ns":10000000)") != std::string::npos);
}

TEST_CASE("the cgroup root's cpu.stat alone: row all, the cores null") {
  for (bool hybrid : {false, true}) {
    CAPTURE(hybrid);
    Recorded r = Record({.cgroup = true, .hybrid = hybrid});
    const std::string file = hybrid ? "/sys/fs/cgroup/unified/cpu.stat" : "/sys/fs/cgroup/cpu.stat";
    CHECK(FineHeader(r) ==
          R"(,"cpu_fine":{"fields":["busy_ns","user_ns","system_ns"],"cores":[0,1],"sources":[)"
          R"({"fields":["busy_ns","user_ns","system_ns"],"rows":["all"],"file":")" + file +
          R"(","resolution_ns":)" + std::to_string(pm::KernelTickNs()) + "}]}");
    CHECK(FineSample(r) == R"(,"cpu_fine":[[560676000000,423244000000,137432000000],null,null])");
  }
  Recorded r = Record({.cgroup = true, .nice = true});  // 6.x kernels print nice_usec
  CHECK(FineHeader(r).starts_with(R"(,"cpu_fine":{"fields":["busy_ns","user_ns","nice_ns",)"));
  CHECK(FineSample(r) == R"(,"cpu_fine":[[560676000000,423244000000,4000000,137432000000],null,null])");
}

TEST_CASE("/proc/schedstat alone: each core's busy and run delay, row all their sums") {
  Recorded r = Record({.schedstat = true});
  CHECK(FineHeader(r) ==
        R"(,"cpu_fine":{"fields":["busy_ns","run_delay_ns"],"cores":[0,1],"sources":[)"
        R"({"fields":["busy_ns","run_delay_ns"],"rows":["all","cores"],)"
        R"("file":"/proc/schedstat","resolution_ns":1}]})");
  CHECK(FineSample(r) == R"(,"cpu_fine":[[14000000124,3000000010],)"
                         R"([9000000123,2000000007],[5000000001,1000000003]])");
}

TEST_CASE("cpuidle alone: each core's idle time, its states summed") {
  Recorded r = Record({.cpuidle = true});
  CHECK(FineHeader(r) ==
        R"(,"cpu_fine":{"fields":["idle_ns"],"cores":[0,1],"sources":[{"fields":["idle_ns"],)"
        R"("rows":["all","cores"],"file":"/sys/devices/system/cpu/cpu*/cpuidle/state*/time",)"
        R"("resolution_ns":1000}]})");
  CHECK(FineSample(r) == R"(,"cpu_fine":[[6002000],[2001000],[4001000]])");
}

TEST_CASE("every source: all's busy time is the cgroup root's, the cores' schedstat's") {
  Recorded r = Record({.cgroup = true, .schedstat = true, .cpuidle = true});
  CHECK(FineHeader(r).starts_with(
      R"(,"cpu_fine":{"fields":["busy_ns","user_ns","system_ns","idle_ns","run_delay_ns"],)"));
  CHECK(FineHeader(r).find(R"({"fields":["run_delay_ns"],"rows":["all"],"file":"/proc/schedstat")") !=
        std::string::npos);
  CHECK(FineSample(r) == R"(,"cpu_fine":[[560676000000,423244000000,137432000000,6002000,)"
                         R"(3000000010],[9000000123,0,0,2001000,2000000007],)"
                         R"([5000000001,0,0,4001000,1000000003]])");
}

TEST_CASE("an unknown schedstat version is left out; the other sources stand") {
  TempDir dir("proc-small");
  Build(dir.path(), {.cgroup = true});
  WriteFile(dir.path() / "proc/schedstat", "version 99\ncpu0 1 2 3 4 5 6 7 8 9\n");
  pm::CollectorOptions o;
  o.enabled.assign(o.enabled.size(), false);
  o.on("cpu") = true;
  auto fd = OpenDir(dir.path());
  pm::CollectorSet set(fd.Get(), o);
  CHECK(set.DescribeJson().find("schedstat") == std::string::npos);
  CHECK(set.DescribeJson().find("/sys/fs/cgroup/cpu.stat") != std::string::npos);
}

TEST_CASE("a malformed read mid-recording is a format error naming the file and line") {
  TempDir dir("proc-small");
  Build(dir.path(), {.schedstat = true});
  pm::CollectorOptions o;
  o.enabled.assign(o.enabled.size(), false);
  o.on("cpu") = true;
  auto fd = OpenDir(dir.path());
  pm::CollectorSet set(fd.Get(), o);
  WriteFile(dir.path() / "proc/schedstat", "version 15\ncpu0 1 2\n");
  std::string line;
  try {
    set.AppendSample(line);
    FAIL("no error");
  } catch (const FormatError& e) {
    CHECK(std::string(e.what()).find("proc/schedstat:2: cpu line has 2") != std::string::npos);
  }
}

}  // TEST_SUITE
