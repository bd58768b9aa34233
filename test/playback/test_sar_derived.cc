// The values sar and iostat users read first, derived from counters every
// recording has: a disk's %util, await and aqu-sz (iostat -x's formulas),
// cswch/s and forks/s (sar -w's), in play, summary, CSV and plot; none of
// them for a legacy recording, whose outputs stay PerfMonger's.
#include <doctest/doctest.h>

#include <string>

#include "playback/outputs/export_csv.hh"
#include "playback/outputs/play_json.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/outputs/summary.hh"
#include "test/playback/rates_test_util.hh"
#include "proto/columns/disk.hh"

namespace pm::test {
namespace {

static_assert(std::tuple_size_v<DiskCounters> == kDiskFields.size(), "sample_rows.hh's width");

// What a recording's header declared, per member: the disk's 11 fields of
// a kernel before 4.18 (`extras` 0), with the discards (4.18 to 5.4: 1) or
// the flushes too (2).
std::vector<std::vector<bool>> Recorded(int extras) {
  std::vector<std::vector<bool>> recorded(MemberCount());
  std::vector<bool>& disk = recorded[MemberIndexOf("disk")];
  disk.assign(kDiskFields.size(), false);
  size_t n = extras == 0 ? kDiskBaseFields : extras == 1 ? kDiskDiscardFields : kDiskFields.size();
  for (size_t f = 0; f < n; ++f) disk[f] = true;
  return recorded;
}

// Two disks over 2 s: vda busy 500 ms (25 %), 100 writes taking 400 ms
// (w_await 4 ms), 600 weighted ms (aqu-sz 0.30); sdb busy 1500 ms. 20000
// context switches and 10 forks. Recorded on a kernel before 4.18 unless
// told (`recorded`): no discards nor flushes.
struct Burst {
  RawSample a = At(0), b = At(2 * kSec);
  std::vector<std::vector<bool>> recorded = Recorded(0);
  Burst() {
    AddDisk(a, "vda", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1000, 5000});
    AddDisk(b, "vda", {0, 0, 0, 0, 100, 0, 800, 400, 0, 1500, 5600});
    AddDisk(a, "sdb", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    AddDisk(b, "sdb", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1500, 0});
    AddRow(a, "proc", "", Values{1000, 50});
    AddRow(b, "proc", "", Values{21000, 60});
  }
  std::string Play(bool legacy) const {
    ReportOptions options;
    options.legacy = legacy;
    options.recorded = &recorded;
    std::string out;
    AppendPlayJson(out, Pair(a, b, {}, options));
    return out;
  }
  std::string Summary(bool legacy, bool all) const {
    SummaryInput in;
    in.first = &a;
    in.last = &b;
    in.legacy = legacy;
    in.all = all;
    in.recorded = recorded;
    return SummaryText(in);
  }
  std::string Csv(bool legacy) const {
    ReportOptions options;
    options.legacy = legacy;
    options.recorded = &recorded;
    CsvExport csv;
    std::string out;
    csv.AppendRow(out, Pair(a, b, {}, options));
    return out;
  }
};

}  // namespace

TEST_CASE("play: util per disk (the total's the mean), cswch/s and forks/s") {
  const Burst burst;
  const std::string line = burst.Play(false);
  const std::string disk = PlayMember(line, "disk");
  CHECK(disk.find(R"("vda":{"riops":0.00,"wiops":50.00,"rkbyteps":0.00,"wkbyteps":200.00,)"
                  R"("rlatency":0.000,"wlatency":4.000,"rsize":0.00,"wsize":8.00,"qlen":0.30,)"
                  R"("util":25.00})") != std::string::npos);
  CHECK(disk.find(R"("sdb":{)") != std::string::npos);
  CHECK(disk.find(R"("qlen":0.00,"util":75.00})") != std::string::npos);
  CHECK(disk.find(R"("qlen":0.30,"util":50.00}})") != std::string::npos);  // total
  CHECK(PlayMember(line, "proc") == R"({"cswchps":10000.00,"forkps":5.00})");
}

TEST_CASE("a legacy recording's play has neither") {
  const std::string line = Burst().Play(true);
  CHECK(line.find("util") == std::string::npos);
  CHECK(PlayMember(line, "proc").empty());
}

TEST_CASE("summary --all: utilization and queue length per device, then task activity") {
  const Burst burst;
  const std::string text = burst.Summary(false, true);
  CHECK(text.find("    write latency: 4000.0 usec\n      read amount: 0.00 MB\n"
                  "     write amount: 0.39 MB\n      utilization: 25.00 %\n"
                  "     queue length: 0.30\n\n") != std::string::npos);
  CHECK(text.find("* Task activity\n  context switches: 10000.00 /s\n"
                  "             forks: 5.00 /s\n\n") != std::string::npos);
  const std::string legacy = burst.Summary(true, true);
  CHECK(legacy.find("utilization") == std::string::npos);
  CHECK(legacy.find("Task activity") == std::string::npos);
}

// Scripts compare PerfMonger's default text: ours is its layout, line for
// line, as a PerfMonger recording of the same counters reads.
TEST_CASE("summary without --all: PerfMonger's text, neither block") {
  const Burst burst;
  const std::string text = burst.Summary(false, false);
  CHECK(text.find("* Average DEVICE usage: vda\n") != std::string::npos);
  CHECK(text.find("utilization") == std::string::npos);
  CHECK(text.find("queue length") == std::string::npos);
  CHECK(text.find("Task activity") == std::string::npos);
  CHECK(text == burst.Summary(true, false));
}

TEST_CASE("csv: disk.<dev>.util and proc.cswchps, proc.forkps") {
  const Burst burst;
  const std::string csv = burst.Csv(false);
  CHECK(csv.find(",disk.vda.qlen,disk.vda.util,") != std::string::npos);
  CHECK(csv.find(",proc.cswchps,proc.forkps") != std::string::npos);
  CHECK(csv.find(",0.30,25.00,") != std::string::npos);
  CHECK(csv.find(",10000.00,5.00") != std::string::npos);
  const std::string legacy = burst.Csv(true);
  CHECK(legacy.find("util") == std::string::npos);
  CHECK(legacy.find("proc.") == std::string::npos);
}

TEST_CASE("plot: disk-util.dat per device (%util r_await w_await aqu-sz), not for legacy") {
  const Burst burst;
  PlotData data(nullptr, false);
  data.OnSample(burst.a);
  data.OnSample(burst.b);
  const std::string file = data.File("disk-util.dat");
  CHECK(file.find("# device: vda\n") != std::string::npos);
  // No reads in the interval: no r_await (a gap in the chart), not 0 ms.
  CHECK(file.find("\t25.000000\tNaN\t4.000000\t0.300000\n") != std::string::npos);
  CHECK(data.Blocks("disk-util.dat") == std::vector<std::string>{"sdb", "vda", "total"});
  PlotData legacy(nullptr, true);
  legacy.OnSample(burst.a);
  legacy.OnSample(burst.b);
  CHECK(legacy.File("disk-util.dat").empty());
  CHECK_FALSE(legacy.File("disk.dat").empty());
}

// A 5.5+ kernel's vda over the same 2 s: 50 discards of 204800 sectors
// (100 MiB) taking 100 ms, 20 flushes taking 60 ms; sdb none.
struct Discards : Burst {
  Discards() {
    recorded = Recorded(2);
    Member(a, "disk") = {};
    Member(b, "disk") = {};
    AddDisk(a, "vda", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1000, 5000, 10, 0, 4096, 20, 5, 15});
    AddDisk(b, "vda", {0, 0, 0, 0, 100, 0, 800, 400, 0, 1500, 5600, 60, 2, 208896, 120, 25, 75});
    AddDisk(a, "sdb", {});
    AddDisk(b, "sdb", {0, 0, 0, 0, 0, 0, 0, 0, 0, 1500, 0});
  }
};

TEST_CASE("play: discards (iostat's d/s, dkB/s, d_await) and flushes (f/s, f_await)") {
  Discards burst;
  std::string disk = PlayMember(burst.Play(false), "disk");
  CHECK(disk.find(R"("util":25.00,"diops":25.00,"dkbyteps":51200.00,"dlatency":2.000,)"
                  R"("fiops":10.00,"flatency":3.000})") != std::string::npos);
  // The total weighs each latency by its device's count (sdb has none).
  CHECK(disk.find(R"("util":50.00,"diops":25.00,"dkbyteps":51200.00,"dlatency":2.000,)"
                  R"("fiops":10.00,"flatency":3.000}})") != std::string::npos);
  // 4.18 to 5.4: discards without flushes.
  burst.recorded = Recorded(1);
  disk = PlayMember(burst.Play(false), "disk");
  CHECK(disk.find(R"("dlatency":2.000})") != std::string::npos);
  CHECK(disk.find("fiops") == std::string::npos);
  // Before 4.18 (or a recording of an older recorder): neither, not zeros.
  burst.recorded = Recorded(0);
  disk = PlayMember(burst.Play(false), "disk");
  CHECK(disk.find("diops") == std::string::npos);
  CHECK(disk.find("fiops") == std::string::npos);
  CHECK(PlayMember(burst.Play(true), "disk").find("diops") == std::string::npos);
}

TEST_CASE("summary --all and csv: discards and flushes where recorded") {
  Discards burst;
  const std::string text = burst.Summary(false, true);
  CHECK(text.find("     queue length: 0.30\n     discard IOPS: 25.00\n"
                  "discard throughput: 50.00 MB/s\n  discard latency: 2000.0 usec\n"
                  "       flush rate: 10.00 /s\n    flush latency: 3000.0 usec\n\n") !=
        std::string::npos);
  CHECK(burst.Summary(false, false).find("discard") == std::string::npos);
  const std::string csv = burst.Csv(false);
  CHECK(csv.find(",disk.vda.util,disk.vda.diops,disk.vda.dkbyteps,disk.vda.dlatency,"
                 "disk.vda.fiops,disk.vda.flatency,") != std::string::npos);
  CHECK(csv.find(",25.00,25.00,51200.00,2.000,10.00,3.000,") != std::string::npos);
  burst.recorded = Recorded(0);
  CHECK(burst.Summary(false, true).find("discard") == std::string::npos);
  CHECK(burst.Csv(false).find("diops") == std::string::npos);
}

}  // namespace pm::test
