// The machine's CPU time on the real machine: the recorder names each CPU
// series' source as this kernel offers them, and play's cpu.all adds up to
// 100 × the cores at 10 ms, null only over a pair that measured nothing.
#include <doctest/doctest.h>

#include <time.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

bool Exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

// The finer sources this machine offers, as the header names them.
std::set<std::string> FinerFiles() {
  std::set<std::string> files;
  for (std::string mount : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
    if (Exists(mount + "/cgroup.controllers") && Exists(mount + "/cpu.stat")) {
      files.insert(mount + "/cpu.stat");
      break;
    }
  if (Exists("/proc/schedstat")) files.insert("/proc/schedstat");
  if (Exists("/sys/devices/system/cpu/cpu0/cpuidle/state0/time"))
    files.insert("/sys/devices/system/cpu/cpu*/cpuidle/state*/time");
  return files;
}

std::set<std::string> SourceFiles(const JsonValue& member) {
  std::set<std::string> files;
  if (!member.exists()) return files;
  for (const JsonValue& s : member["sources"].array()) {
    CHECK(int64_t(s["resolution_ns"]) > 0);
    files.insert(std::string(std::string_view(s["file"])));
  }
  return files;
}

// The kernel's tick (TICK_NSEC): what the coarse clocks advance by.
int64_t TickNs() {
  timespec res{};
  REQUIRE(::clock_getres(CLOCK_MONOTONIC_COARSE, &res) == 0);
  return res.tv_nsec;
}

// Each cpu.stat source declares the resolution the kernel counts it in:
// the kernel's root group in ticks, whatever its values divide by; a
// group below it (a cgroup namespace's root) its usage in µs.
void CheckCgroupResolutions(const JsonValue& fine) {
  if (!fine.exists()) return;
  for (const JsonValue& s : fine["sources"].array()) {
    const std::string file{std::string_view(s["file"])};
    if (!file.ends_with("/cpu.stat")) continue;
    const bool below_root = Exists(file.substr(0, file.rfind('/')) + "/cgroup.events");
    const bool usage_alone = s["fields"].array().size() == 1;
    CAPTURE(file);
    CHECK(int64_t(s["resolution_ns"]) == (below_root && usage_alone ? 1000 : TickNs()));
  }
}

// Raw sample pairs in which no tick of the aggregate line passed and the
// finer aggregate counters stood: the pairs that may rate as null.
size_t UnmeasurablePairs(const Recording& rec) {
  std::vector<std::string> prev_cpu, prev_fine;
  size_t n = 0;
  bool first = true;
  for (size_t i = 1; i < rec.lines.size(); ++i) {
    Json line(rec.lines[i]);
    if (!line.Has("cpu")) continue;
    const JsonValue& all = line.root()["cpu"].at(0);
    std::vector<std::string> c, f;
    for (const JsonValue& v : all.array()) c.push_back(std::to_string(int64_t(v)));
    if (line.Has("cpu_fine") && line.root()["cpu_fine"].at(0).exists() &&
        line.root()["cpu_fine"].at(0).type() == JsonValue::Type::kArray)
      for (const JsonValue& v : line.root()["cpu_fine"].at(0).array())
        f.push_back(std::to_string(int64_t(v)));
    if (!first && c == prev_cpu && f == prev_fine) ++n;
    prev_cpu = c, prev_fine = f, first = false;
  }
  return n;
}

}  // namespace

TEST_CASE("record at 10 ms: the CPU sources named, cpu.all adds up to 100 × cores") {
  TempDir dir;
  const std::string file = dir / "c.pgr";
  ExitResult r = Run({"record", "-l", file, "-i", "0.01", "-t", "0.6", "--no-disk", "--no-net"});
  REQUIRE(r.code == 0);
  Recording rec = ReadRecording(file);
  REQUIRE(rec.lines.size() > 10);
  Json header(rec.lines[0]);
  const JsonValue& collectors = header.root()["collectors"];
  CHECK(SourceFiles(collectors["cpu"]) == std::set<std::string>{"/proc/stat"});
  CHECK(int64_t(collectors["cpu"]["sources"].at(0)["resolution_ns"]) ==
        1'000'000'000 / ::sysconf(_SC_CLK_TCK));
  const std::set<std::string> finer = FinerFiles();
  CHECK(collectors["cpu_fine"].exists() == !finer.empty());
  CHECK(SourceFiles(collectors["cpu_fine"]) == finer);
  CheckCgroupResolutions(collectors["cpu_fine"]);

  ExitResult play = Run({"play", file});
  REQUIRE(play.code == 0);
  size_t nulls = 0, lines = 0;
  for (const std::string& text : SplitLines(play.out)) {
    Json line(text);
    const JsonValue& cpu = line.root()["cpu"];
    const double cores = double(cpu["num_core"]);
    const JsonValue& all = cpu["all"];
    ++lines;
    if (all["usr"].type() == JsonValue::Type::kNull) {
      for (const auto& [key, v] : all.object()) CHECK(v.type() == JsonValue::Type::kNull);
      ++nulls;
      continue;
    }
    double sum = 0;
    for (const char* mode : {"usr", "nice", "sys", "idle", "iowait", "hardirq", "softirq",
                             "steal"})
      sum += double(all[mode]);
    CAPTURE(text);
    CHECK(std::fabs(sum - 100 * cores) < 0.1);
    CHECK(line.Has("mem"));
  }
  CHECK(lines > 10);
  CHECK(nulls <= UnmeasurablePairs(rec));

  // OpenMetrics: the finer counters with their nanosecond digits.
  ExitResult metrics = Run({"play", "--format", "openmetrics", file});
  REQUIRE(metrics.code == 0);
  const bool cgroup_root = finer.count("/sys/fs/cgroup/cpu.stat") + finer.count("/sys/fs/cgroup/unified/cpu.stat") > 0;
  if (cgroup_root) {
    const std::string busy = "perfmonger_cpu_seconds_total{cpu=\"all\",mode=\"busy\",";
    size_t at = metrics.out.find(busy);
    REQUIRE(at != std::string::npos);
    const std::string line = metrics.out.substr(at, metrics.out.find('\n', at) - at);
    CAPTURE(line);
    const size_t value = line.find("} ") + 2;
    const size_t dot = line.find('.', value);
    CHECK(line.find(' ', dot) - dot == 10);  // "." and nine digits
  }

  ExitResult summary = Run({"summary", file});
  REQUIRE(summary.code == 0);
  CHECK(summary.out.find("  * CPU time: ") != std::string::npos);
  if (finer.empty()) CHECK(summary.out.find("  * CPU time: /proc/stat, 10 ms (no ") != std::string::npos);
}

TEST_CASE("record --root: the finer sources found below the root, named as on the machine") {
  FakeProc fake(CountersAt(0));
  const std::string& root = fake.root();
  for (const char* d : {"/sys/fs/cgroup", "/sys/devices/system/cpu/cpu0/cpuidle/state0",
                        "/sys/devices/system/cpu/cpu1/cpuidle/state0"})
    std::filesystem::create_directories(root + d);
  WriteFile(root + "/sys/fs/cgroup/cgroup.controllers", "cpu io memory\n");
  WriteFile(root + "/sys/fs/cgroup/cpu.stat",
            "usage_usec 8012000\nuser_usec 6000000\nsystem_usec 2012000\n");
  WriteFile(root + "/proc/schedstat",
            "version 16\ntimestamp 1\ncpu0 0 0 0 0 0 0 500 60 1\ncpu1 0 0 0 0 0 0 700 80 1\n");
  for (const char* cpu : {"cpu0", "cpu1"})
    WriteFile(root + "/sys/devices/system/cpu/" + cpu + "/cpuidle/state0/time", "123\n");
  TempDir dir;
  const std::string file = dir / "f.pgr";
  RecordFake(fake, file, {CountersAt(0), CountersAt(1), CountersAt(2)});
  Json header(ReadRecording(file).lines[0]);
  const JsonValue& fine = header.root()["collectors"]["cpu_fine"];
  CHECK(SourceFiles(fine) ==
        std::set<std::string>{"/sys/fs/cgroup/cpu.stat", "/proc/schedstat",
                              "/sys/devices/system/cpu/cpu*/cpuidle/state*/time"});
  CHECK(header.text().find(root) == std::string::npos);  // no fake path in the header
  ExitResult summary = Run({"summary", file});
  REQUIRE(summary.code == 0);
  CAPTURE(summary.out);
  const int64_t tick = TickNs();  // the fake tree's cpu.stat counts this kernel's ticks
  const std::string tick_text = tick % 1'000'000 == 0 ? std::to_string(tick / 1'000'000) + " ms"
                                : tick % 1000 == 0    ? std::to_string(tick / 1000) + " µs"
                                                      : std::to_string(tick) + " ns";
  CHECK(summary.out.find("  * CPU time: cgroup2 cpu.stat, " + tick_text +
                         "; cores: /proc/schedstat, 1 ns\n") != std::string::npos);
  ExitResult play = Run({"play", file});
  CHECK(play.code == 0);
}

}  // namespace pm::test
