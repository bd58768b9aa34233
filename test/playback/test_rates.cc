// Rates (compat §4) on hand-built samples: each formula against values
// computed by hand, then the exact JSON text `play` prints.
#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <random>

#include <cmath>
#include <limits>
#include <string>

#include "playback/reports/cpu_report.hh"
#include "playback/reports/disk_filter.hh"
#include "playback/outputs/play_json.hh"
#include "playback/reports/rates.hh"
#include "test/process/json.hh"
#include "test/playback/rates_test_util.hh"

using namespace pm;
using namespace pm::test;

namespace {

std::string Fields(const CpuUsage& u) {
  std::string s;
  for (double v : {u.usr, u.nice, u.sys, u.idle, u.iowait, u.hardirq,
                   u.softirq, u.steal, u.guest, u.guestnice})
  {
    if (!s.empty()) s.push_back(' ');
    AppendFixed(s, v, 2);
  }
  return s;
}

// Core `core` and the aggregate ("all") of a pair.
struct CpuOf {
  CpuUsage all, core;
  size_t cores;
  CpuOf(const RawSample& a, const RawSample& b, size_t c = 0) {
    const ReportOptions options;
    const Pair p(a, b, {}, options);
    all = AllUsage(p), core = CoreUsage(p, c), cores = NumCore(p);
  }
};

// One core, prev → cur, 2 s apart.
CpuOf OneCore(const CpuCounters& prev, const CpuCounters& cur) {
  RawSample a = At(0), b = At(2 * kSec);
  SetCpu(a, prev, {prev});
  SetCpu(b, cur, {cur});
  return CpuOf(a, b);
}

std::string DiskJson(const RawSample& a, const RawSample& b,
                     const DiskFilter* only = nullptr) {
  return PlayMember(PlayLine(a, b, 0, only), "disk");
}

constexpr std::string_view kZeroDisk =
    R"({"riops":0.00,"wiops":0.00,"rkbyteps":0.00,"wkbyteps":0.00,)"
    R"("rlatency":0.000,"wlatency":0.000,"rsize":0.00,"wsize":0.00,"qlen":0.00})";

}  // namespace

TEST_SUITE("rates") {

TEST_CASE("AppendFixed rounds as Go's %.Nf does") {
  struct Row { double v; int precision; std::string_view out; };
  const Row rows[] = {
      {0.0, 2, "0.00"}, {0.125, 2, "0.12"}, {0.375, 2, "0.38"},
      {2.675, 2, "2.67"}, {1.005, 2, "1.00"}, {-0.001, 2, "-0.00"},
      {99.995, 2, "100.00"}, {1e21, 2, "1000000000000000000000.00"},
      {1425358683.123, 3, "1425358683.123"}, {2.5, 1, "2.5"},
      {std::numeric_limits<double>::quiet_NaN(), 2, "NaN"},
      {HUGE_VAL, 2, "+Inf"}, {-HUGE_VAL, 3, "-Inf"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.out);
    CHECK(Fixed(r.v, r.precision) == r.out);
  }
}

TEST_CASE("GoSeconds adds whole seconds and the remainder as Go does") {
  CHECK(GoSeconds(3001000000) == 3.001);
  CHECK(GoSeconds(1000224742) == 1.0002247419999999);  // not ns / 1e9
  CHECK(GoSeconds(-1500000000) == -1.5);
}

// PerfMonger: float64(cur.UnixNano()) − float64(first.UnixNano()), then
// / 1e9. At today's epoch a double holds a timestamp to 256 ns, so the
// rounded difference can land on the other side of a %.3f boundary.
TEST_CASE("elapsed_time converts both timestamps to double before subtracting") {
  const int64_t first = 1425358684084008026, cur = 1425358688263507963;
  CHECK(Fixed(GoSeconds(cur - first), 3) == "4.179");  // the exact difference
  CHECK(Fixed(ElapsedSeconds(cur, first), 3) == "4.180");  // PerfMonger's
  RawSample a = At(first), b = At(cur);
  const ReportOptions options;
  const Pair r(a, b, {first}, options);
  CHECK(Fixed(r.elapsed_time, 3) == "4.180");
  CHECK(Fixed(r.time, 3) == "1425358688.264");  // float64(ns) / 1e9
  // The interval every rate divides by is Go's Duration.Seconds().
  CHECK(r.interval == GoSeconds(cur - first));
  CHECK(PlayLine(a, b, first).starts_with(R"({"time":1425358688.264,"elapsed_time":4.180})"));
}

// A counter that went backwards was reset (a device re-attached, a 32-bit
// NIC counter that wrapped): the pair counts 0 for it, never a negative
// rate, for disks, network, interrupts and CPU alike.
TEST_CASE("a counter that went backwards counts 0 for the pair") {
  RawSample a = At(0), b = At(kSec);
  AddNet(a, "eth0", Net(4294967290, 10, 500, 5));
  AddNet(b, "eth0", Net(100, 12, 1524, 6));  // rx bytes wrapped at 2^32
  AddDisk(a, "vda", {10, 0, 80, 50, 5, 0, 40, 30, 0, 0, 900});
  AddDisk(b, "vda", {2, 0, 16, 4, 7, 0, 56, 20, 0, 0, 100});  // reset; writes moved
  SetCpu(a, {100, 0, 0, 100, 50, 0, 0, 0, 0, 0}, {{100, 0, 0, 100, 50, 0, 0, 0, 0, 0}});
  SetCpu(b, {150, 0, 0, 150, 40, 0, 0, 0, 0, 0}, {{150, 0, 0, 150, 40, 0, 0, 0, 0, 0}});
  AddRow(a, "intr", "24", Values{1000});
  AddRow(b, "intr", "24", Values{10});
  std::string net, disk, intr;
  net = PlayMember(PlayLine(a, b, 0), "net");
  disk = PlayMember(PlayLine(a, b, 0), "disk");
  intr = PlayMember(PlayLine(a, b, 0), "intr");
  CHECK(net.find(R"("eth0":{"rxkbyteps":0.00,"rxpktps":2.00,)") != std::string::npos);
  CHECK(disk.find(R"("vda":{"riops":0.00,"wiops":2.00,"rkbyteps":0.00,"wkbyteps":8.00,)"
                  R"("rlatency":0.000,"wlatency":0.000,"rsize":0.00,"wsize":8.00,"qlen":0.00})") !=
        std::string::npos);
  CHECK(intr == R"({"core_dev_intr":[0.00],"core_sys_intr":[0.00]})");
  // iowait went backwards (some kernels do): 0, and T is the other ticks.
  CHECK(Fields(CpuOf(a, b).core) == "50.00 0.00 0.00 50.00 0.00 0.00 0.00 0.00 0.00 0.00");
  for (const std::string& text : {net, disk, intr}) CHECK(text.find('-') == std::string::npos);
}

TEST_CASE("CPU usage per core") {
  struct Row { CpuCounters prev, cur; std::string_view out; };
  const CpuCounters z{};
  const Row rows[] = {
      {z, {30, 10, 20, 40, 0, 0, 0, 0, 0, 0},
       "30.00 10.00 20.00 40.00 0.00 0.00 0.00 0.00 0.00 0.00"},
      {z, {10, 10, 10, 10, 10, 10, 10, 30, 0, 0},
       "10.00 10.00 10.00 10.00 10.00 10.00 10.00 30.00 0.00 0.00"},
      // guest time is inside user (and guest_nice inside nice), not in T
      {z, {50, 20, 0, 50, 0, 0, 0, 0, 20, 5},
       "25.00 12.50 0.00 41.67 0.00 0.00 0.00 0.00 16.67 4.17"},
      // more guest than user: clamped at 0
      {z, {10, 0, 0, 90, 0, 0, 0, 0, 30, 7},
       "0.00 0.00 0.00 90.00 0.00 0.00 0.00 0.00 30.00 7.00"},
      // T = 0, and every counter went backwards (a reset): all zero
      {{5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, {5, 5, 5, 5, 5, 5, 5, 5, 9, 9},
       "0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00"},
      {{100, 0, 0, 0, 0, 0, 0, 0, 0, 0}, z,
       "0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00"},
      // Δ/T·100, not Δ·100/T: 23/160·100 = 14.374999… in float64
      {z, {23, 0, 0, 137, 0, 0, 0, 0, 0, 0},
       "14.37 0.00 0.00 85.62 0.00 0.00 0.00 0.00 0.00 0.00"},
      {{1000, 0, 0, 1000, 0, 0, 0, 0, 0, 0}, {1001, 0, 0, 1002, 0, 0, 0, 0, 0, 0},
       "33.33 0.00 0.00 66.67 0.00 0.00 0.00 0.00 0.00 0.00"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.out);
    CpuOf cpu = OneCore(r.prev, r.cur);
    REQUIRE(cpu.cores == 1);
    CHECK(Fields(cpu.core) == r.out);
    CHECK(Fields(cpu.all) == r.out);  // × num_core = 1
  }
}

TEST_CASE("CPU all is the aggregate line times num_core; offline cores are 0") {
  RawSample a = At(0), b = At(kSec);
  SetCpu(a, {}, {{}, {}});
  SetCpu(b, {1, 0, 0, 2, 0, 0, 0, 0, 0, 0},
         {{1, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 2, 0, 0, 0, 0, 0, 0}});
  Member(b, "cpu").present[2] = 0;  // core 1
  CpuOf core0(a, b, 0), core1(a, b, 1);
  CHECK(core0.cores == 2);
  CHECK(Fields(core0.all) == "66.67 0.00 0.00 133.33 0.00 0.00 0.00 0.00 0.00 0.00");
  CHECK(Fields(core0.core) == "100.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00");
  CHECK(Fields(core1.core) == "0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00 0.00");
}

TEST_CASE("interrupts: per CPU, numbered rows vs named rows, matched by irq") {
  RawSample a = At(0), b = At(2 * kSec);
  AddRow(a, "intr", "24", Values{0, 0});
  AddRow(a, "intr", "25", Values{0, 0});
  AddRow(a, "intr", "LOC", Values{0, 0});
  AddRow(b, "intr", "NMI", Values{50, 50});  // not in prev: left out
  AddRow(b, "intr", "24", Values{10, 4});
  AddRow(b, "intr", "25", Values{2, 0});
  AddRow(b, "intr", "LOC", Values{100, 201});
  std::string out = PlayMember(PlayLine(a, b, 0), "intr");
  CHECK(out == R"({"core_dev_intr":[6.00,2.00],"core_sys_intr":[50.00,100.50]})");
}

TEST_CASE("disk: per device, I/O-weighted total, latency 0 without I/O") {
  RawSample a = At(0), b = At(2 * kSec);
  AddDisk(a, "sda", {});
  AddDisk(a, "sdb", {});
  AddDisk(b, "sda", {4, 0, 64, 10, 0, 0, 0, 0, 0, 0, 500});
  AddDisk(b, "sdb", {1, 0, 8, 1, 0, 0, 0, 0, 0, 0, 0});
  CHECK(DiskJson(a, b) ==
        R"({"devices":["sda","sdb"],)"
        R"("sda":{"riops":2.00,"wiops":0.00,"rkbyteps":16.00,"wkbyteps":0.00,)"
        R"("rlatency":2.500,"wlatency":0.000,"rsize":16.00,"wsize":0.00,"qlen":0.25},)"
        R"("sdb":{"riops":0.50,"wiops":0.00,"rkbyteps":2.00,"wkbyteps":0.00,)"
        R"("rlatency":1.000,"wlatency":0.000,"rsize":8.00,"wsize":0.00,"qlen":0.00},)"
        R"("total":{"riops":2.50,"wiops":0.00,"rkbyteps":18.00,"wkbyteps":0.00,)"
        R"("rlatency":2.200,"wlatency":0.000,"rsize":14.40,"wsize":0.00,"qlen":0.25}})");
}

TEST_CASE("disk: only devices present in both samples, names sorted bytewise") {
  RawSample a = At(0), b = At(kSec);
  for (const char* name : {"sdb", "sda", "Z", "sda1", "gone", "offline"})
    AddDisk(a, name, {});
  for (const char* name : {"new", "sda1", "Z", "offline", "sda", "sdb"})
    AddDisk(b, name, {});
  Member(b, "disk").present[3] = 0;  // "offline": null in cur
  std::string expect = R"({"devices":["Z","sda","sda1","sdb"])";
  for (const char* name : {"Z", "sda", "sda1", "sdb", "total"})
    expect += ",\"" + std::string(name) + "\":" + std::string(kZeroDisk);
  CHECK(DiskJson(a, b) == expect + "}");
}

TEST_CASE("disk: --disk-only keeps matching names (unanchored) in list and total") {
  RawSample a = At(0), b = At(kSec);
  for (const char* name : {"sda", "sda1", "sdb"}) AddDisk(a, name, {});
  AddDisk(b, "sda", {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  AddDisk(b, "sda1", {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  AddDisk(b, "sdb", {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  DiskFilter only("da");
  CHECK(DiskJson(a, b, &only).starts_with(R"({"devices":["sda","sda1"],)"));
  CHECK(DiskJson(a, b, &only).find(R"("total":{"riops":3.00,)") != std::string::npos);
  DiskFilter exact("^sdb$");
  CHECK(DiskJson(a, b, &exact).starts_with(R"({"devices":["sdb"],"sdb":{"riops":4.00,)"));
  DiskFilter none("nvme");
  CHECK(DiskJson(a, b, &none) ==
        R"({"devices":[],"total":)" + std::string(kZeroDisk) + "}");
}

TEST_CASE("disk and net names are escaped as Go does") {
  RawSample a = At(0), b = At(kSec);
  AddDisk(a, "a<b&\"c", {});
  AddDisk(b, "a<b&\"c", {});
  CHECK(DiskJson(a, b) == R"({"devices":["a\u003cb\u0026\"c"],"a\u003cb\u0026\"c":)" +
                              std::string(kZeroDisk) + R"(,"total":)" +
                              std::string(kZeroDisk) + "}");
}

TEST_CASE("device lists of any length, long and escaped names among short ones") {
  RawSample a = At(0), b = At(kSec);
  std::vector<std::string> names;
  for (int i = 0; i < 40; ++i)  // 40 names of 62 bytes: several kilobytes of list
    names.push_back("n" + std::string(2 - std::to_string(i).size(), '0') + std::to_string(i) +
                    std::string(59, 'x'));
  names.push_back("n50" + std::string(100, 'y'));  // longer than a short name
  names.push_back("n60<&>");                        // escaped
  for (const std::string& name : names) {
    AddNet(a, name, {});
    AddNet(b, name, {});
  }
  std::string out = PlayMember(PlayLine(a, b, 0), "net");
  std::string zero =
      R"({"rxkbyteps":0.00,"rxpktps":0.00,"rxerrps":0.00,"rxdropps":0.00,)"
      R"("txkbyteps":0.00,"txpktps":0.00,"txerrps":0.00,"txdropps":0.00})";
  std::string expect = R"({"devices":[)";
  for (const std::string& name : names) {
    std::string quoted =
        name == "n60<&>" ? R"("n60\u003c\u0026\u003e")" : "\"" + name + "\"";
    expect += (name == names.front() ? "" : ",") + quoted;
  }
  expect += "]";
  for (const std::string& name : names) {
    std::string quoted =
        name == "n60<&>" ? R"("n60\u003c\u0026\u003e")" : "\"" + name + "\"";
    expect += "," + quoted + ":" + zero;
  }
  CHECK(out == expect + R"(,"total":)" + zero + "}");
}

TEST_CASE("net: per interface and summed total") {
  RawSample a = At(0), b = At(2 * kSec);
  AddNet(a, "lo", Net(0, 0, 0, 0));
  AddNet(a, "eth0", Net(1000, 10, 0, 0));
  AddNet(b, "eth0", Net(1000 + 2048, 14, 4096, 2));
  AddNet(b, "lo", Net(1024, 1, 1024, 1));
  AddNet(b, "wlan0", Net(999, 9, 9, 9));  // not in prev
  Member(b, "net").row(1)[2] = 6;   // lo rx errors
  Member(b, "net").row(1)[11] = 1;  // lo tx drops
  std::string out = PlayMember(PlayLine(a, b, 0), "net");
  CHECK(out ==
        R"({"devices":["eth0","lo"],)"
        R"("eth0":{"rxkbyteps":1.00,"rxpktps":2.00,"rxerrps":0.00,"rxdropps":0.00,)"
        R"("txkbyteps":2.00,"txpktps":1.00,"txerrps":0.00,"txdropps":0.00},)"
        R"("lo":{"rxkbyteps":0.50,"rxpktps":0.50,"rxerrps":3.00,"rxdropps":0.00,)"
        R"("txkbyteps":0.50,"txpktps":0.50,"txerrps":0.00,"txdropps":0.50},)"
        R"("total":{"rxkbyteps":1.50,"rxpktps":2.50,"rxerrps":3.00,"rxdropps":0.00,)"
        R"("txkbyteps":2.50,"txpktps":1.50,"txerrps":0.00,"txdropps":0.50}})");
}

TEST_CASE("mem: 29 keys, cur values, mem_used as Go's int64 (may be negative)") {
  Values m(30);
  for (size_t i = 0; i < m.size(); ++i) m[i] = 10 * i + 5;
  RawSample a = At(0), b = At(kSec);
  AddRow(b, "mem", "", m);
  CHECK(PlayMember(PlayLine(a, b, 0), "mem") ==
        R"({"mem_total":5,"mem_used":-255,"mem_free":15,"buffers":35,"cached":45,)"
        R"("swap_cached":55,"active":65,"inactive":75,"swap_total":85,)"
        R"("swap_free":95,"dirty":105,"writeback":115,"anon_pages":125,)"
        R"("mapped":135,"shmem":145,"slab":155,"s_reclaimable":165,)"
        R"("s_unreclaim":175,"kernel_stack":185,"page_tables":195,)"
        R"("nfs_unstable":205,"bounce":215,"commit_limit":225,)"
        R"("committed_as":235,"anon_huge_pages":245,"huge_pages_total":255,)"
        R"("huge_pages_free":265,"huge_pages_rsvd":275,"huge_pages_surp":285})");
  Member(b, "mem").values[0] = 8000;
  CHECK(PlayMember(PlayLine(a, b, 0), "mem").starts_with(
      "{\"mem_total\":8000,\"mem_used\":" + std::to_string(8000 - 15 - 35 - 45 - 165) + ","));
}

TEST_CASE("play line: key order, formats, absent sections left out") {
  const int64_t first = 1425358680 * kSec;
  RawSample a = At(first + kSec), b = At(first + 3 * kSec);
  SetCpu(a, {}, {{}});
  SetCpu(b, {50, 0, 50, 100, 0, 0, 0, 0, 0, 0}, {{50, 0, 50, 100, 0, 0, 0, 0, 0, 0}});
  AddDisk(a, "sda", {});
  AddDisk(b, "sda", {2, 0, 16, 4, 2, 0, 32, 6, 0, 0, 1000});
  AddNet(a, "eth0", {});
  AddNet(b, "eth0", Net(2048, 4, 4096, 2));
  std::string out = PlayLine(a, b, first);
  const std::string core =
      R"({"usr":25.00,"nice":0.00,"sys":25.00,"idle":50.00,"iowait":0.00,)"
      R"("hardirq":0.00,"softirq":0.00,"steal":0.00,"guest":0.00,"guestnice":0.00})";
  const std::string sda =
      R"({"riops":1.00,"wiops":1.00,"rkbyteps":4.00,"wkbyteps":8.00,)"
      R"("rlatency":2.000,"wlatency":3.000,"rsize":8.00,"wsize":16.00,"qlen":0.50})";
  const std::string eth0 =
      R"({"rxkbyteps":1.00,"rxpktps":2.00,"rxerrps":0.00,"rxdropps":0.00,)"
      R"("txkbyteps":2.00,"txpktps":1.00,"txerrps":0.00,"txdropps":0.00})";
  CHECK(out == R"({"time":1425358683.000,"elapsed_time":3.000,)"
               R"("cpu":{"num_core":1,"all":)" + core + R"(,"cores":[)" + core + "]}," +
               R"("disk":{"devices":["sda"],"sda":)" + sda + R"(,"total":)" + sda + "}," +
               R"("net":{"devices":["eth0"],"eth0":)" + eth0 + R"(,"total":)" + eth0 +
               "}}");
}

TEST_CASE("play line: intr after cpu, mem last; a section needs both samples") {
  RawSample a = At(kSec), b = At(kSec + 1500000000);
  AddRow(a, "intr", "LOC", Values{0});
  AddRow(b, "intr", "LOC", Values{3});
  Values mem(30, 0);
  mem[0] = 100;
  AddRow(b, "mem", "", mem);
  AddDisk(b, "sda", {});  // disk only in cur: no "disk" key
  std::string out = PlayLine(a, b, 0);
  CHECK(out.starts_with(R"({"time":2.500,"elapsed_time":2.500,)"
                        R"("intr":{"core_dev_intr":[0.00],"core_sys_intr":[2.00]},)"
                        R"("mem":{"mem_total":100,"mem_used":100,"mem_free":0,)"));
  CHECK(out.find("disk") == std::string::npos);
  CHECK(out.ends_with(R"("huge_pages_surp":0}})"));
}

TEST_CASE("devices sorted bytewise and stably, few or many") {
  for (int count : {5, 32, 33, 200}) {
    CAPTURE(count);
    RawSample a = At(0), b = At(kSec);
    for (int i = 0; i < count; ++i) {  // a scrambled order, as /proc lists them
      std::string name = "dev" + std::to_string((i * 7919) % count);
      AddNet(a, name, {});
      AddNet(b, name, Net(static_cast<uint64_t>(i), 0, 0, 0));
    }
    test::Json net(PlayMember(PlayLine(a, b, 0), "net"));
    const auto& devices = net.root()["devices"].array();
    REQUIRE(devices.size() == static_cast<size_t>(count));
    for (size_t i = 1; i < devices.size(); ++i)
      CHECK(std::string_view(devices[i - 1]) < std::string_view(devices[i]));
  }
}

}  // TEST_SUITE

TEST_CASE("AppendFixed agrees with the exact algorithm on a million values") {
  // The fast path must never change a digit: compare with to_chars, which
  // rounds the exact binary value as Go does.
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto reference = [](double v, int precision) {
    char buf[400];
    auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, precision);
    return std::string(buf, r.ptr);
  };
  for (int i = 0; i < 1'000'000; ++i) {
    double magnitude = std::pow(10.0, static_cast<int>(rng() % 12) - 3);
    double v = unit(rng) * magnitude * ((rng() & 1) ? 1 : -1);
    if (i % 3 == 0) v = std::round(v * 1000) / 1000 + 0.0005 * ((rng() & 1) ? 1 : -1);
    if (i % 5 == 0) v = static_cast<double>(rng() % 100000) / 8;  // exact ties
    for (int precision : {2, 3}) {
      std::string got;
      pm::AppendFixed(got, v, precision);
      if (got != reference(v, precision)) {
        CAPTURE(v);
        CAPTURE(precision);
        CHECK(got == reference(v, precision));
      }
    }
  }
  std::string z;
  pm::AppendFixed(z, -0.0, 2);
  CHECK(z == reference(-0.0, 2));
}
