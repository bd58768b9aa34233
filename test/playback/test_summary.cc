// `summary` text and JSON (compat §5) on a hand-built pair of samples:
// 2 cores, 2 disks, 2 interfaces, 4 s apart; numbers computed by hand.
#include <doctest/doctest.h>

#include <string>

#include "playback/outputs/summary.hh"
#include "test/playback/rates_test_util.hh"

using namespace pm;
using namespace pm::test;

namespace {

struct Span {
  RawSample first = At(1000 * kSec), last = At(1004 * kSec);

  Span() {
    SetCpu(first, {}, {{}, {}});
    SetCpu(last, {300, 100, 40, 360, 0, 0, 0, 0, 0, 0},
           {{150, 50, 20, 180, 0, 0, 0, 0, 0, 0}, {150, 50, 20, 180, 0, 0, 0, 0, 0, 0}});
    AddDisk(first, "sdb", {});
    AddDisk(first, "sda", {});
    AddDisk(last, "sda", {8, 0, 2048, 20, 4, 0, 4096, 6, 0, 0, 2000});
    AddDisk(last, "sdb", {0, 0, 0, 0, 4, 0, 1024, 10, 0, 0, 0});
    AddNet(first, "lo", {});
    AddNet(first, "eth0", {});
    AddNet(last, "eth0", Net(16384, 8, 8192, 4));
    AddNet(last, "lo", {});
  }
  // PerfMonger's blocks, as for a legacy recording: what these tests check
  // (test_sar_derived.cc checks the lines beyond them).
  SummaryInput Input() const { return {"x.pgr", &first, &last, {}, false, nullptr, true}; }
};

const std::string kCpuText =
    "* Average CPU usage (MAX: 200 %)\n"
    "  * Non-idle usage: 110.00 %\n"
    "       %usr: 100.00 %\n"
    "       %sys: 10.00 %\n"
    "       %irq: 0.00 %\n"
    "      %soft: 0.00 %\n"
    "     %other: 0.00 %\n"
    "  * Idle usage: 90.00 %\n"
    "    %iowait: 0.00 %\n"
    "      %idle: 90.00 %\n"
    "\n";

std::string DiskText(std::string_view name, std::string_view riops,
                     std::string_view wiops, std::string_view rtp,
                     std::string_view wtp, std::string_view rlat,
                     std::string_view wlat, std::string_view ramt,
                     std::string_view wamt) {
  std::string s = "* Average DEVICE usage: " + std::string(name) + "\n";
  s += "        read IOPS: " + std::string(riops) + "\n";
  s += "       write IOPS: " + std::string(wiops) + "\n";
  s += "  read throughput: " + std::string(rtp) + " MB/s\n";
  s += " write throughput: " + std::string(wtp) + " MB/s\n";
  s += "     read latency: " + std::string(rlat) + " usec\n";
  s += "    write latency: " + std::string(wlat) + " usec\n";
  s += "      read amount: " + std::string(ramt) + " MB\n";
  s += "     write amount: " + std::string(wamt) + " MB\n\n";
  return s;
}

const std::string kSdbText =
    DiskText("sdb", "0.00", "1.00", "0.00", "0.12", "0.0", "2500.0", "0.00", "0.50");

const std::string kDiskText =
    DiskText("sda", "2.00", "1.00", "0.25", "0.50", "2500.0", "1500.0", "1.00", "2.00") +
    kSdbText +
    // write throughput 0.625 and 0.125 MB/s: exact ties, rounded to even
    DiskText("total", "2.00", "2.00", "0.25", "0.62", "2500.0", "2000.0", "1.00", "2.50");

const std::string kCoreJson =
    R"({"usr":37.50,"nice":12.50,"sys":5.00,"idle":45.00,"iowait":0.00,)"
    R"("hardirq":0.00,"softirq":0.00,"steal":0.00,"guest":0.00,"guestnice":0.00})";
const std::string kEth0Json =
    R"({"rxkbyteps":4.00,"rxpktps":2.00,"rxerrps":0.00,"rxdropps":0.00,)"
    R"("txkbyteps":2.00,"txpktps":1.00,"txerrps":0.00,"txdropps":0.00})";
const std::string kJson =
    R"({"exectime":4.000,"cpu":{"num_core":2,"all":)"
    R"({"usr":75.00,"nice":25.00,"sys":10.00,"idle":90.00,"iowait":0.00,)"
    R"("hardirq":0.00,"softirq":0.00,"steal":0.00,"guest":0.00,"guestnice":0.00},)"
    R"("cores":[)" + kCoreJson + "," + kCoreJson + "]}," +
    R"("disk":{"devices":["sda","sdb"],)"
    R"("sda":{"riops":2.00,"wiops":1.00,"rkbyteps":256.00,"wkbyteps":512.00,)"
    R"("rlatency":2.500,"wlatency":1.500,"rsize":256.00,"wsize":1024.00,"qlen":0.50},)"
    R"("sdb":{"riops":0.00,"wiops":1.00,"rkbyteps":0.00,"wkbyteps":128.00,)"
    R"("rlatency":0.000,"wlatency":2.500,"rsize":0.00,"wsize":256.00,"qlen":0.00},)"
    R"("total":{"riops":2.00,"wiops":2.00,"rkbyteps":256.00,"wkbyteps":640.00,)"
    R"("rlatency":2.500,"wlatency":2.000,"rsize":256.00,"wsize":640.00,"qlen":0.50}},)"
    R"("net":{"devices":["eth0","lo"],"eth0":)" + kEth0Json +
    R"(,"lo":{"rxkbyteps":0.00,"rxpktps":0.00,"rxerrps":0.00,"rxdropps":0.00,)"
    R"("txkbyteps":0.00,"txpktps":0.00,"txerrps":0.00,"txdropps":0.00},"total":)" +
    kEth0Json + "}";

void SetMem(RawSample& s) {
  Values mem(30, 0);
  mem[0] = 8000000;   // MemTotal
  mem[1] = 1000000;   // MemFree
  mem[2] = 5000000;   // MemAvailable
  mem[3] = 200000;    // Buffers
  mem[4] = 3000000;   // Cached
  mem[8] = 2000000;   // SwapTotal
  mem[9] = 1500000;   // SwapFree
  mem[10] = 1234;     // Dirty
  mem[16] = 300000;   // SReclaimable
  Member(s, "mem") = {};
  AddRow(s, "mem", "", mem);
}

}  // namespace

TEST_SUITE("summary") {

TEST_CASE("text: PerfMonger's layout, sorted devices, then total") {
  Span p;
  CHECK(SummaryText(p.Input()) ==
        "== performance summary of 'x.pgr' ==\n\nDuration: 4.000 sec\n\n" +
            kCpuText + kDiskText);
}

TEST_CASE("text: no total with one device; --disk-only; no title") {
  Span p;
  SummaryInput in = p.Input();
  DiskFilter only("b$");
  in.disk_only = &only;
  in.title_file.clear();
  CHECK(SummaryText(in) ==
        "== performance summary ==\n\nDuration: 4.000 sec\n\n" + kCpuText + kSdbText);
}

TEST_CASE("text: Metadata block last, after --all's network and memory blocks") {
  Span p;
  SetMem(p.last);
  SummaryInput in = p.Input();
  in.meta = {{"sql", "SELECT * FROM t WHERE id=42"}, {"note", "two\nlines\x01"}};
  std::string meta = "Metadata:\n  sql: SELECT * FROM t WHERE id=42\n"
                     "  note: two\\nlines\\x01\n\n";
  std::string head = "== performance summary of 'x.pgr' ==\n\nDuration: 4.000 sec\n\n" +
                     kCpuText + kDiskText;
  CHECK(SummaryText(in) == head + meta);
  in.all = true;
  auto net = [](std::string_view name, std::string_view rx, std::string_view rxp,
                std::string_view tx, std::string_view txp) {
    return "* Average NETWORK usage: " + std::string(name) + "\n" +
           "    RX throughput: " + std::string(rx) + " KB/s\n" +
           "       RX packets: " + std::string(rxp) + " /s\n" +
           "        RX errors: 0.00 /s\n         RX drops: 0.00 /s\n" +
           "    TX throughput: " + std::string(tx) + " KB/s\n" +
           "       TX packets: " + std::string(txp) + " /s\n" +
           "        TX errors: 0.00 /s\n         TX drops: 0.00 /s\n\n";
  };
  CHECK(SummaryText(in) == head + net("eth0", "4.00", "2.00", "2.00", "1.00") +
                               net("lo", "0.00", "0.00", "0.00", "0.00") +
                               net("total", "4.00", "2.00", "2.00", "1.00") +
                               "* Memory usage (last sample)\n"
                               "        mem total: 8000000 kB\n"
                               "         mem used: 3500000 kB\n"
                               "         mem free: 1000000 kB\n"
                               "    mem available: 5000000 kB\n"
                               "          buffers: 200000 kB\n"
                               "           cached: 3000000 kB\n"
                               "       swap total: 2000000 kB\n"
                               "        swap free: 1500000 kB\n"
                               "            dirty: 1234 kB\n"
                               "        writeback: 0 kB\n\n" + meta);
}

// PerfMonger never recorded MemAvailable: no "mem available: 0 kB" for it.
TEST_CASE("text: memory values the recording lacks are left out") {
  Span p;
  SetMem(p.last);
  SummaryInput in = p.Input();
  in.all = true;
  std::vector<bool> recorded(30, true);
  recorded[2] = false;
  in.recorded.assign(MemberCount(), {});
  in.recorded[MemberIndexOf("mem")] = recorded;
  std::string text = SummaryText(in);
  CHECK(text.find("mem available") == std::string::npos);
  CHECK(text.find("         mem used: 3500000 kB\n         mem free: 1000000 kB\n"
                  "          buffers: 200000 kB\n") != std::string::npos);
  in.recorded[MemberIndexOf("mem")][16] = false;  // no SReclaimable: no mem used either
  CHECK(SummaryText(in).find("mem used") == std::string::npos);
}

// A pause right after the start, or a last sample in the same tick: no
// CPU time passed, so no usage either (PerfMonger's MAX − idle − iowait
// would print 200.00 %).
TEST_CASE("text: a pair without a clock tick shows no CPU usage, not 100 % per core") {
  Span p;
  Member(p.last, "cpu") = Member(p.first, "cpu");
  std::string text = SummaryText(p.Input());
  CHECK(text.find("  * Non-idle usage: 0.00 %\n") != std::string::npos);
  CHECK(text.find("  * Idle usage: 0.00 %\n") != std::string::npos);
}

TEST_CASE("json: PerfMonger's object on one line") {
  Span p;
  CHECK(SummaryJson(p.Input()) == kJson + "}\n");
}

TEST_CASE("json: mem (last sample) and meta (decoded, escaped) appended") {
  Span p;
  SetMem(p.last);
  SummaryInput in = p.Input();
  in.meta = {{"sql", "SELECT * FROM t WHERE id=42"}, {"a<b", "x\ny"}};
  std::string out = SummaryJson(in);
  CHECK(out.starts_with(kJson + R"(,"mem":{"mem_total":8000000,"mem_used":3500000,)"));
  CHECK(out.ends_with(R"("huge_pages_surp":0},"meta":{"sql":"SELECT * FROM t WHERE id=42",)"
                      R"("a\u003cb":"x\ny"}})" "\n"));
}

TEST_CASE("the clock's states: a Clock block before Metadata, a \"clock\" object before meta") {
  Span p;
  RecordingInfo info;
  info.interval_ns = 100'000'000;
  info.clock = ClockState{.disciplined = true, .synced = true, .offset_ns = -12'345,
                          .maxerror_us = 1'500, .esterror_us = 100, .source = "tsc"};
  ClockHistory clocks(info);
  RecordingEvent end;
  end.kind = "end";
  end.clock = ClockState{.source = "hpet"};
  clocks.OnEvent(end);
  SummaryInput in = p.Input();
  in.meta = {{"q", "1"}};
  in.clock = &clocks;
  CHECK(SummaryText(in).ends_with(
      kDiskText +
      "Clock:\n"
      "  at start: synchronised, offset -0.012 ms, max error 1.500 ms, est. error 0.100 ms, "
      "clocksource tsc\n"
      "    at end: clocksource hpet\n\n"
      "Metadata:\n  q: 1\n\n"));
  CHECK(SummaryJson(in) ==
        kJson + R"(,"clock":{"start":{"synced":true,"offset_ns":-12345,"maxerror_us":1500,)"
                R"("esterror_us":100,"source":"tsc"},"end":{"source":"hpet"}},)"
                R"("meta":{"q":"1"}})" "\n");
  ClockHistory none{RecordingInfo{}};  // a recording from before: as it always was
  in.clock = &none;
  in.meta.clear();
  CHECK(SummaryJson(in) == kJson + "}\n");
  CHECK(SummaryText(in) == "== performance summary of 'x.pgr' ==\n\nDuration: 4.000 sec\n\n" +
                               kCpuText + kDiskText);
}

TEST_CASE("a single sample: duration 0, no rate sections") {
  Span p;
  SetMem(p.first);
  SummaryInput in = p.Input();
  in.last = &p.first;
  CHECK(SummaryText(in) == "== performance summary of 'x.pgr' ==\n\nDuration: 0.000 sec\n\n");
  CHECK(SummaryJson(in).starts_with(R"({"exectime":0.000,"mem":{"mem_total":8000000,)"));
}

}  // TEST_SUITE
