// What sar and iostat users read first, on this machine's real /proc: the
// disk's %util, await and aqu-sz over a real O_DIRECT write burst, checked
// against /proc/diskstats as the test itself reads it around the burst.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test/process/recording.hh"

namespace pm::test {
namespace {

// One /proc/diskstats line's name and first 11 counters.
struct DiskLine {
  std::string name;
  std::array<int64_t, 11> c{};
};

// The line of device major:minor in a copy of /proc/diskstats, or no name.
DiskLine FindDisk(const std::string& text, unsigned major, unsigned minor) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    unsigned ma = 0, mi = 0;
    DiskLine d;
    words >> ma >> mi >> d.name;
    for (int64_t& v : d.c) words >> v;
    if (words && ma == major && mi == minor) return d;
  }
  return {};
}

int64_t ReadNs(const std::string& path) {
  std::ifstream in(path);
  int64_t ns = 0;
  in >> ns;
  return ns;
}

// The disk row `row` of a sample line's "disk" member, field `f`.
int64_t Recorded(const Json& sample, size_t row, size_t f) {
  return int64_t(sample.root()["disk"].at(row).at(f));
}

enum { kWrites = 4, kWriteMs = 7, kIoMs = 9, kWeightedMs = 10 };

}  // namespace

TEST_SUITE("sar's numbers on the real machine") {
  TEST_CASE("stat -- an O_DIRECT burst: %util, w_await and aqu-sz as diskstats gives them") {
    TempDir dir;
    struct stat st;
    REQUIRE(::stat(dir.path().c_str(), &st) == 0);
    DiskLine disk = FindDisk(ReadFileBytes("/proc/diskstats"), major(st.st_dev), minor(st.st_dev));
    if (disk.name.empty()) {
      MESSAGE("skipped: " << dir.path() << " is on no block device in /proc/diskstats");
      return;
    }
    // The diskstats reads bracket the two clock reads, which bracket the
    // burst: the recorder's samples (before CMD starts, when it has exited)
    // bracket all of it.
    const std::string script =
        "cat /proc/diskstats > before && date +%s%N > t0 && "
        "dd if=/dev/zero of=f bs=1M count=32 oflag=direct 2>/dev/null && "
        "date +%s%N > t1 && cat /proc/diskstats > after";
    SpawnOptions options;
    options.args = {"stat", "--json", "-i", "60", "-d", disk.name, "-l", dir / "s.pgr", "--",
                    "sh", "-c", script};
    options.cwd = dir.path();
    ExitResult r = Child(std::move(options)).Wait(After(std::chrono::seconds(60)));
    CAPTURE(r.err);
    if (r.code != 0 && !std::ifstream(dir / "t1")) {
      MESSAGE("skipped: " << dir.path() << " does not take O_DIRECT");
      return;
    }
    REQUIRE(r.code == 0);

    Recording rec = ReadRecording(dir / "s.pgr");
    std::vector<Json> samples;
    for (size_t i = 1; i < rec.lines.size(); ++i)
      if (!Json(rec.lines[i]).Has("event")) samples.emplace_back(rec.lines[i]);
    REQUIRE(samples.size() == 2);
    const Json &a = samples[0], &b = samples[1];
    auto delta = [&](size_t f) { return Recorded(b, 0, f) - Recorded(a, 0, f); };
    // The readers' interval: the monotonic clock's (the wall clock's "t" is
    // read apart from it, microseconds later under a slow recorder).
    const double t_rec_ms =
        static_cast<double>(int64_t(b.root()["mono"]) - int64_t(a.root()["mono"])) / 1e6;

    // The summary's figures are iostat's formulas on the recorded counters.
    Json summary(r.out);
    const JsonValue& vda = summary.root()["disk"][disk.name];
    CAPTURE(r.out);
    CHECK(std::abs(double(vda["util"]) - 100.0 * static_cast<double>(delta(kIoMs)) / t_rec_ms) <= 0.006);
    CHECK(std::abs(double(vda["wlatency"]) -
                   static_cast<double>(delta(kWriteMs)) / static_cast<double>(delta(kWrites))) <= 0.0006);
    CHECK(std::abs(double(vda["qlen"]) - static_cast<double>(delta(kWeightedMs)) / t_rec_ms) <= 0.006);

    // And those counters are the machine's, as the test read them: at least
    // the burst's busy time, at most that plus the time outside it (a
    // device is busy at most all the time; 20 ms of jiffy rounding).
    DiskLine before = FindDisk(ReadFileBytes(dir / "before"), major(st.st_dev), minor(st.st_dev));
    DiskLine after = FindDisk(ReadFileBytes(dir / "after"), major(st.st_dev), minor(st.st_dev));
    const int64_t io_ms = after.c[kIoMs] - before.c[kIoMs];
    const int64_t writes = after.c[kWrites] - before.c[kWrites];
    const double burst_ms = static_cast<double>(ReadNs(dir / "t1") - ReadNs(dir / "t0")) / 1e6;
    REQUIRE(writes >= 32);  // 32 MiB of 1 MiB direct writes, maybe split
    CHECK(io_ms > 0);
    CHECK(delta(kIoMs) >= io_ms);
    CHECK(static_cast<double>(delta(kIoMs)) <= static_cast<double>(io_ms) + (t_rec_ms - burst_ms) + 20);
    CHECK(delta(kWrites) >= writes);
    // w_await as the test computes it over the burst: the recorder's
    // interval adds only a shell's start and exit around it.
    const double await = static_cast<double>(after.c[kWriteMs] - before.c[kWriteMs]) /
                         static_cast<double>(writes);
    CHECK(std::abs(double(vda["wlatency"]) - await) <= 0.5 * await + 1.0);

    // play and its CSV carry the same figure per pair.
    ExitResult play = Run({"play", dir / "s.pgr"});
    REQUIRE(play.code == 0);
    CHECK(double(Json(SplitLines(play.out).back()).root()["disk"][disk.name]["util"]) ==
          double(vda["util"]));
    ExitResult csv = Run({"play", "--format", "csv", dir / "s.pgr"});
    REQUIRE(csv.code == 0);
    CHECK(csv.out.find("disk." + disk.name + ".util") != std::string::npos);
  }

  TEST_CASE("stat records the load: /proc/loadavg's averages and the run queue, everywhere") {
    TempDir dir;
    const std::string before = ReadFileBytes("/proc/loadavg");
    SpawnOptions options;
    options.args = {"stat", "--json", "-l", dir / "s.pgr", "--", "true"};
    ExitResult r = Child(std::move(options)).Wait(After(std::chrono::seconds(60)));
    const std::string after = ReadFileBytes("/proc/loadavg");
    REQUIRE(r.code == 0);
    const Json summary(r.out);
    const JsonValue& load = summary.root()["load"];
    REQUIRE(load.is_object());
    // The averages change every 5 s: the recorder read one of the two.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", double(load["load1"]));
    CAPTURE(before);
    CAPTURE(after);
    CHECK((before.starts_with(std::string(buf) + " ") || after.starts_with(std::string(buf) + " ")));
    CHECK(int64_t(load["procs_running"]) >= 1);  // the recorder itself
    CHECK(int64_t(load["threads"]) >= int64_t(load["runnable"]));
    ExitResult text = Run({"summary", dir / "s.pgr"});
    CHECK(text.out.find("* Load (last sample)\n    load average: " + std::string(buf) + ", ") !=
          std::string::npos);
    ExitResult om = Run({"play", "--format", "openmetrics", dir / "s.pgr"});
    CHECK(om.out.find("# TYPE node_load1 gauge\n") != std::string::npos);
    CHECK(om.out.find("\nnode_load1{instance=") != std::string::npos);
    CHECK(om.out.find("\nnode_procs_blocked{instance=") != std::string::npos);
    // --record-load=false leaves it out.
    SpawnOptions off;
    off.args = {"stat", "--json", "--record-load=false", "-l", dir / "t.pgr", "--", "true"};
    ExitResult r2 = Child(std::move(off)).Wait(After(std::chrono::seconds(60)));
    REQUIRE(r2.code == 0);
    CHECK_FALSE(Json(r2.out).Has("load"));
  }
}

}  // namespace pm::test
