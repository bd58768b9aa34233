// The cgroup v2 parsers as tables, and the collector on a fake tree: the
// mount found (plain or hybrid), files a group lacks, a group removed
// mid-recording, and the setup errors.
#include <doctest/doctest.h>

#include <array>
#include <filesystem>
#include <string>

#include "common/error.hh"
#include "daemon/collect/collector_set.hh"
#include "daemon/collect/parse_cgroup.hh"
#include "test/daemon/test_util.hh"

using pm::FormatError;
using pm::test::OpenDir;
using pm::test::TempDir;
using pm::test::WriteFile;

namespace {

pm::CollectorSet Open(const std::filesystem::path& root, std::vector<std::string> groups) {
  pm::CollectorOptions o;
  o.enabled.assign(o.enabled.size(), false);
  o.on("cgroups") = true;
  o.values_of("cgroups") = std::move(groups);
  auto fd = OpenDir(root);
  return pm::CollectorSet(fd.Get(), o);
}

std::string Sample(pm::CollectorSet& set) {
  std::string line = "{\"t\":1";
  set.AppendSample(line);
  return line.substr(6);
}

void WriteGroup(const std::filesystem::path& dir, uint64_t usage, bool all_controllers) {
  WriteFile(dir / "cpu.stat", "usage_usec " + std::to_string(usage) +
                                  "\nuser_usec 70\nsystem_usec 30\nnr_periods 9\n"
                                  "nr_throttled 2\nthrottled_usec 500\n");
  WriteFile(dir / "cpu.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=11\n"
                                  "full avg10=0.00 avg60=0.00 avg300=0.00 total=12\n");
  if (!all_controllers) return;
  WriteFile(dir / "io.stat", "254:0 rbytes=100 wbytes=200 rios=1 wios=2 dbytes=0 dios=0\n"
                             "253:1 rbytes=1000 wbytes=2000 rios=10 wios=20 dbytes=0 dios=0\n");
  WriteFile(dir / "memory.current", "4096\n");
  WriteFile(dir / "memory.stat", "anon 1024\nfile 2048\nkernel 7\npgmajfault 3\n");
  WriteFile(dir / "io.pressure", "some total=21\nfull total=22\n");
  WriteFile(dir / "memory.pressure", "some total=31\nfull total=32\n");
}

}  // namespace

TEST_SUITE("cgroup collector") {

TEST_CASE("ParseFlatKeyed, ParseIoStat, ParseSingleValue: real layouts") {
  std::array<std::string_view, 3> keys = {"usage_usec", "nr_throttled", "missing"};
  std::array<uint64_t, 3> v{9, 9, 9};
  pm::ParseFlatKeyed("usage_usec 15948363280\nuser_usec 1\nnr_throttled 4\n", keys, v, "cpu.stat");
  CHECK(v == std::array<uint64_t, 3>{15948363280, 4, 0});
  pm::IoStatTotals io;
  pm::ParseIoStat("8:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=5 dios=6\n"
                  "8:16 rbytes=10 wbytes=20 rios=30 wios=40\n", io, "io.stat");
  CHECK(io.rbytes == 11);
  CHECK(io.wbytes == 22);
  CHECK(io.rios == 33);
  CHECK(io.wios == 44);
  std::vector<pm::IoStatRow> rows;
  pm::ParseIoStat("8:0 rbytes=1 wbytes=2 rios=3 wios=4\n8:16 rbytes=10\n", io, "io.stat", &rows);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].device == "8:16");
  CHECK(rows[1].values.rbytes == 10);
  CHECK(rows[0].values.wios == 4);
  pm::ParseIoStat("", io, "io.stat", &rows);  // a group without I/O yet
  CHECK(rows.empty());
  CHECK(io.rbytes == 0);
  CHECK(pm::ParseSingleValue("123456\n", "memory.current") == 123456);
}

TEST_CASE("cgroup parsers: malformed text names the file and line") {
  std::array<std::string_view, 1> keys = {"usage_usec"};
  std::array<uint64_t, 1> v{};
  CHECK_THROWS_WITH_AS(pm::ParseFlatKeyed("user_usec 1\nusage_usec x\n", keys, v, "cpu.stat"),
                       "cpu.stat:2: expected an unsigned integer after 'usage_usec'", FormatError);
  pm::IoStatTotals io;
  CHECK_THROWS_WITH_AS(pm::ParseIoStat("8:0 rbytes=1 wbytes\n", io, "io.stat"),
                       "io.stat:1: expected KEY=N, not 'wbytes'", FormatError);
  CHECK_THROWS_WITH_AS(pm::ParseIoStat("8:0 rbytes=-1\n", io, "io.stat"),
                       "io.stat:1: expected KEY=N, not 'rbytes=-1'", FormatError);
  CHECK_THROWS_WITH_AS(pm::ParseSingleValue("max\n", "memory.current"),
                       "memory.current:1: expected one unsigned integer", FormatError);
}

TEST_CASE("groups below a hybrid host's unified mount; files a group lacks read 0; per disk") {
  TempDir tree("proc-small");
  auto mount = tree.path() / "sys/fs/cgroup/unified";
  WriteFile(mount / "cgroup.controllers", "hugetlb\n");
  WriteGroup(mount / "db", 1000, true);
  WriteGroup(mount / "web/app", 5, false);  // only cpu.stat and cpu.pressure
  pm::CollectorSet set = Open(tree.path(), {"db", "web/app"});
  std::string describe = set.DescribeJson();
  CHECK(describe.find(R"("rows":["db","web/app"],"absent":[[],["io.stat","memory.current",)"
                      R"("memory.stat","io.pressure","memory.pressure"]]})") != std::string::npos);
  // usage user system nr_throttled throttled rbytes wbytes rios wios majflt
  // cpu some/full io some/full memory some/full, current anon file
  // io.stat per whole disk of /sys/block (loop devices left out), sorted;
  // 253:1 is no disk there: it counts in the totals only.
  CHECK(describe.find(R"("cgroup_io":{"fields":["rbytes","wbytes","rios","wios"],)"
                      R"("rows":["db:cciss/c0d0","db:vda","db:vdb","web/app:cciss/c0d0",)"
                      R"("web/app:vda","web/app:vdb"]})") != std::string::npos);
  CHECK(Sample(set) ==
        R"(,"cgroups":[[1000,70,30,2,500,1100,2200,11,22,3,11,12,21,22,31,32,4096,1024,2048],)"
        R"([5,70,30,2,500,0,0,0,0,0,11,12,0,0,0,0,0,0,0]],)"
        R"("cgroup_io":[[0,0,0,0],[100,200,1,2],[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]])");
}

TEST_CASE("a group removed mid-recording is null from then on; an absolute path works") {
  TempDir tree("proc-small");
  auto mount = tree.path() / "sys/fs/cgroup";
  WriteFile(mount / "cgroup.controllers", "cpu io memory\n");
  WriteGroup(mount / "a", 1, true);
  WriteGroup(mount / "b", 2, true);
  pm::CollectorSet set = Open(tree.path(), {"/sys/fs/cgroup/a", "b"});
  CHECK(Sample(set).starts_with(R"(,"cgroups":[[1,)"));
  WriteFile(mount / "a/cpu.stat", "");  // what this fake tree has for a removed group
  std::string after = Sample(set);
  CHECK(after.starts_with(R"(,"cgroups":[null,[2,)"));
  CHECK(after.find(R"("cgroup_io":[null,null,null,[0,0,0,0],[100,200,1,2],[0,0,0,0]])") !=
        std::string::npos);
  WriteGroup(mount / "a", 3, true);  // a new group of the same name is another group
  CHECK(Sample(set) == after);
}

TEST_CASE("a group that does not exist, or no cgroup v2 at all: setup errors") {
  TempDir tree("proc-small");
  CHECK_THROWS_WITH_AS(Open(tree.path(), {"db"}),
                       "--cgroup db: no cgroup v2 hierarchy at /sys/fs/cgroup or /sys/fs/cgroup/unified",
                       pm::UsageError);
  WriteFile(tree.path() / "sys/fs/cgroup/cgroup.controllers", "cpu\n");
  CHECK_THROWS_WITH_AS(Open(tree.path(), {"nope"}),
                       "--cgroup nope: no cgroup v2 group at /sys/fs/cgroup/nope (no cpu.stat); "
                       "give a path below the cgroup2 mount, or absolute",
                       pm::UsageError);
}

}  // TEST_SUITE
