// Members with named rows (pressure, procs) read back: the reader, play's
// objects, summary's blocks beside the system's figures, pauses, and the
// counter rules (a reset is 0, a gone row null).
#include <doctest/doctest.h>

#include <string>

#include "playback/reading/native_reader.hh"
#include "playback/outputs/phases.hh"
#include "playback/outputs/play_json.hh"
#include "playback/reports/rates.hh"
#include "playback/outputs/summary.hh"
#include "proto/stream.hh"
#include "test/playback/sample_rows.hh"

using namespace pm;

namespace {

const std::string kHeader =
    R"({"format":"perfmonger-pgr","version":1,"num_core":1,"collectors":{)"
    R"("cpu":{"fields":["user","nice","system","idle","iowait","irq","softirq","steal","guest","guest_nice"],"cores":[0]},)"
    R"("disk":{"fields":["reads","read_merges","read_sectors","read_ms","writes","write_merges","write_sectors","write_ms","in_flight","io_ms","weighted_io_ms"],"devices":["vda"]},)"
    R"("pressure":{"fields":["total_us"],"rows":["cpu.some","cpu.full","io.some"],"absent":["irq"]},)"
    // Columns are matched by name: reordered and with one this reader
    // does not know.
    R"("procs":{"fields":["stime_us","utime_us","cutime_us","cstime_us","rchar","wchar",)"
    R"("read_bytes","write_bytes","syscr","syscw","num_threads","rss_kb","future"],)"
    R"("rows":["cmd","42"]}}})"
    "\n";

// At t seconds: cpu (user, idle) over 1 core, vda's written sectors, the
// pressure totals, then cmd's (stime, utime, write_bytes) and 42's row.
std::string SampleLine(int t, int user, int idle, int wsect, const std::string& pressure,
                       const std::string& cmd, const std::string& p42) {
  auto s = [](int v) { return std::to_string(v); };
  return R"({"t":)" + s(t) + "000000000" + R"(,"cpu":[[)" + s(user) + ",0,0," + s(idle) +
         ",0,0,0,0,0,0],[" + s(user) + ",0,0," + s(idle) + R"(,0,0,0,0,0,0]],"disk":[[0,0,0,0,0,0,)" +
         s(wsect) + R"(,0,0,0,0]],"pressure":)" + pressure + R"(,"procs":[)" + cmd + "," + p42 +
         "]}\n";
}

std::string Proc(int stime_us, int utime_us, int wbytes) {
  auto s = [](int v) { return std::to_string(v); };
  return "[" + s(stime_us) + "," + s(utime_us) + ",0,0,10,20,0," + s(wbytes) + ",1,2,3,400,9]";
}

struct Recording {
  std::string bytes;
  std::vector<RawSample> samples;
  std::vector<RecordingEvent> events;
  std::vector<std::vector<bool>> recorded;  // the header's fields: no cpu_ns here

  explicit Recording(std::string text) : bytes(std::move(text)) {
    MemoryInputStream in(bytes);
    NativeReader reader(in);
    recorded = reader.info().recorded;
    RawSample s;
    RecordingEvent e;
    for (RecordingReader::Item item; (item = reader.Next(s, e)) != RecordingReader::Item::kEnd;) {
      if (item == RecordingReader::Item::kSample) samples.push_back(s);
      else events.push_back(e);
    }
  }
  std::string Play(size_t i) const {
    std::string out;
    ReportOptions options;
    options.recorded = &recorded;
    AppendPlayJson(out, Pair(samples[i - 1], samples[i], TimeOrigin::Of(samples[0]), options));
    return out;
  }
};

// Everything from `key` on in a play line (these members come last).
std::string From(const std::string& line, const std::string& key) {
  size_t at = line.find("\"" + key + "\":");
  return at == std::string::npos ? "" : line.substr(at);
}

}  // namespace

TEST_SUITE("row tables") {

TEST_CASE("the reader fills the rows, columns matched by name") {
  Recording r(kHeader + SampleLine(1, 0, 0, 0, "[[0],[0],[0]]", Proc(5, 7, 9), "null"));
  REQUIRE(r.samples.size() == 1);
  const MemberRows& procs = test::Member(r.samples[0], "procs");
  REQUIRE(procs.has);
  REQUIRE(procs.rows() == 2);
  CHECK(procs.names[0] == "cmd");
  CHECK(procs.live(0));
  CHECK(procs.at(0, 0) == 7);  // utime_us, declared second
  CHECK(procs.at(0, 1) == 5);  // stime_us
  CHECK(procs.at(0, 7) == 9);  // write_bytes
  CHECK_FALSE(procs.live(1));
  CHECK(test::Member(r.samples[0], "pressure").names[2] == "io.some");
}

TEST_CASE("play: pressure as percent of the interval, procs per process, null when gone") {
  Recording r(kHeader +
              SampleLine(1, 0, 0, 0, "[[0],[0],[0]]", Proc(0, 0, 0), Proc(0, 0, 0)) +
              SampleLine(3, 100, 100, 8, "[[500000],[0],[1000000]]", Proc(200000, 1000000, 4096),
                         "null"));
  CHECK(From(r.Play(1), "pressure") ==
        R"("pressure":{"cpu":{"some":25.00,"full":0.00},"io":{"some":50.00}},)"
        R"("procs":{"cmd":{"usr":50.00,"sys":10.00,"child_usr":0.00,"child_sys":0.00,)"
        R"("rkbyteps":0.00,"wkbyteps":2.00,"rchar_kbyteps":0.00,"wchar_kbyteps":0.00,)"
        R"("syscrps":0.00,"syscwps":0.00,"num_threads":3,"rss_kb":400},"42":null}})");
}

TEST_CASE("play: a stall longer than the interval is 100 percent of it, no more") {
  // 2 s between the stamps, 2.4 s of cpu stall counted: read late.
  Recording r(kHeader +
              SampleLine(1, 0, 0, 0, "[[0],[0],[0]]", Proc(0, 0, 0), "null") +
              SampleLine(3, 100, 100, 0, "[[2400000],[0],[0]]", Proc(0, 0, 0), "null"));
  CHECK(From(r.Play(1), "pressure").starts_with(R"("pressure":{"cpu":{"some":100.00,"full":0.00})"));
}

TEST_CASE("play: counters that go backwards count 0, never negative; a null line is null") {
  Recording r(kHeader +
              SampleLine(1, 0, 0, 0, "[[900],[5],[7]]", Proc(50, 90, 8192), Proc(1, 1, 1)) +
              SampleLine(2, 0, 0, 0, "[[100],null,[7]]", Proc(10, 20, 4096), Proc(1, 1, 1)));
  std::string line = From(r.Play(1), "pressure");
  CHECK(line.find('-') == std::string::npos);
  CHECK(line.find(R"("cpu":{"some":0.00,"full":null})") != std::string::npos);
  CHECK(line.find(R"("cmd":{"usr":0.00,"sys":0.00,)") != std::string::npos);
  CHECK(line.find(R"("wkbyteps":0.00,)") != std::string::npos);
}

TEST_CASE("a recording without them plays as before: no keys added") {
  std::string header = kHeader;
  Recording r(R"({"format":"perfmonger-pgr","version":1,"num_core":1,"collectors":{)"
              R"("mem":{"fields":["MemTotal"]}}})" "\n" R"({"t":1000000000,"mem":[5]})" "\n"
              R"({"t":2000000000,"mem":[6]})" "\n");
  CHECK(From(r.Play(1), "pressure").empty());
  CHECK(From(r.Play(1), "procs").empty());
}

TEST_CASE("procs with cpu_ns: cpu to the ns, split as the ticks are, then as the life's") {
  const std::string header =
      R"({"format":"perfmonger-pgr","version":1,"num_core":1,"collectors":{)"
      R"("procs":{"fields":["utime_us","stime_us","cutime_us","cstime_us","rchar","wchar",)"
      R"("read_bytes","write_bytes","syscr","syscw","cpu_ns","run_wait_ns","num_threads",)"
      R"("rss_kb"],"rows":["cmd"]}}})" "\n";
  auto line = [](int t, int utime, int stime, long long cpu_ns, long long wait_ns) {
    auto s = [](long long v) { return std::to_string(v); };
    return R"({"t":)" + s(t) + R"(000000000,"procs":[[)" + s(utime) + "," + s(stime) +
           ",0,0,0,0,0,0,0,0," + s(cpu_ns) + "," + s(wait_ns) + ",1,100]]}\n";
  };
  Recording r(header + line(1, 0, 0, 0, 0) + line(2, 30000, 10000, 412345678, 50000000) +
              line(3, 30000, 10000, 512345678, 50000000));
  CHECK(From(r.Play(1), "procs") ==
        R"("procs":{"cmd":{"usr":30.93,"sys":10.31,"child_usr":0.00,"child_sys":0.00,)"
        R"("rkbyteps":0.00,"wkbyteps":0.00,"rchar_kbyteps":0.00,"wchar_kbyteps":0.00,)"
        R"("syscrps":0.00,"syscwps":0.00,"num_threads":1,"rss_kb":100,"cpu":41.23,)"
        R"("run_wait":5.00}}})");
  // No tick in the second: its 0.1 s split as the process's life is, 3:1.
  CHECK(From(r.Play(2), "procs").starts_with(R"("procs":{"cmd":{"usr":7.50,"sys":2.50,)"));
  SummaryInput in{"x.pgr", &r.samples[0], &r.samples[2], {}, false, nullptr};
  in.recorded = r.recorded;
  CHECK(SummaryJson(in).find(R"("procs":{"cmd":{"cpu_sec":0.512346,"usr_sec":0.384259,)"
                             R"("sys_sec":0.128086,"run_wait_sec":0.050000,)") !=
        std::string::npos);
  std::string text = SummaryText(in);
  CHECK(text.find("         CPU time: 0.512346 sec   (whole machine: 0.00 sec)\n"
                  "   run-queue wait: 0.050000 sec\n") != std::string::npos);
}

TEST_CASE("summary: the command's CPU seconds and bytes beside the system's") {
  // 4 s; the machine: 1 core, 300 of 400 ticks busy = 3 CPU seconds;
  // 40960 sectors written = 20 MiB. cmd: 1.5 s user + 0.5 s system, 10 MiB.
  Recording r(kHeader +
              SampleLine(10, 0, 0, 0, "[[0],[0],[0]]", Proc(0, 0, 0), Proc(0, 0, 0)) +
              SampleLine(14, 300, 100, 40960, "[[400000],[0],[2000000]]",
                         Proc(500000, 1500000, 10485760), Proc(0, 0, 0)));
  SummaryInput in{"x.pgr", &r.samples[0], &r.samples[1], {}, false, nullptr};
  in.recorded = r.recorded;
  std::string text = SummaryText(in);
  CHECK(text.find("* Pressure stall (% of the time)\n"
                  "        cpu some: 10.00 %\n"
                  "        cpu full: 0.00 %\n"
                  "         io some: 50.00 %\n\n") != std::string::npos);
  CHECK(text.find("* Process cmd (waited-for children included)\n"
                  "         CPU time: 2.00 sec   (whole machine: 3.00 sec)\n"
                  "      read amount: 0.00 MB   (whole machine: 0.00 MB)\n"
                  "     write amount: 10.00 MB   (whole machine: 20.00 MB)\n") != std::string::npos);
  std::string json = SummaryJson(in);
  CHECK(json.find(R"("procs":{"cmd":{"cpu_sec":2.00,"usr_sec":1.50,"sys_sec":0.50,)"
                  R"("read_bytes":0,"write_bytes":10485760,"rchar":0,"wchar":0,)"
                  R"("num_threads":3,"rss_kb":400},"42":{"cpu_sec":0.00,)") != std::string::npos);
  CHECK(json.find(R"("system":{"cpu_sec":3.00,"read_bytes":0,"write_bytes":20971520}})") !=
        std::string::npos);
}

TEST_CASE("summary over pauses: what moved while paused does not count") {
  // Active 1→2 s and 5→6 s; the process wrote 4096 bytes in each active
  // second and 1 MiB while paused.
  std::string text =
      kHeader + SampleLine(1, 0, 0, 0, "[[0],[0],[0]]", Proc(0, 0, 0), Proc(0, 0, 0)) +
      SampleLine(2, 0, 0, 0, "[[100000],[0],[0]]", Proc(0, 0, 4096), Proc(0, 0, 0)) +
      R"({"event":"pause","t":2000000000})" "\n" R"({"event":"resume","t":5000000000})" "\n" +
      SampleLine(5, 0, 0, 0, "[[900000],[0],[0]]", Proc(0, 0, 1052672), Proc(0, 0, 0)) +
      SampleLine(6, 0, 0, 0, "[[1000000],[0],[0]]", Proc(0, 0, 1056768), Proc(0, 0, 0));
  MemoryInputStream in(text);
  NativeReader reader(in);
  PhaseWalk walk(false);
  RawSample s;
  RecordingEvent e;
  for (RecordingReader::Item item; (item = reader.Next(s, e)) != RecordingReader::Item::kEnd;)
    item == RecordingReader::Item::kSample ? walk.OnSample(s) : walk.OnEvent(e);
  RawSample end = walk.whole().ActiveEnd();
  SummaryInput input{"x.pgr", &walk.whole().first(), &end, {}, false, nullptr};
  std::string json = SummaryJson(input);
  CHECK(json.find(R"("write_bytes":8192,)") != std::string::npos);
  // 0.1 s + 0.1 s stalled in 2 active seconds.
  CHECK(json.find(R"("pressure":{"cpu":{"some":10.00,)") != std::string::npos);
  CHECK(json.find(R"("num_threads":3,"rss_kb":400)") != std::string::npos);  // levels kept
}

}  // TEST_SUITE

TEST_SUITE("row tables") {

TEST_CASE("cgroups: cores and percent, I/O, levels, the group's pressure; null once removed") {
  const std::string header =
      R"({"format":"perfmonger-pgr","version":1,"num_core":1,"collectors":{)"
      R"("cgroups":{"fields":["usage_usec","user_usec","system_usec","nr_throttled",)"
      R"("throttled_usec","rbytes","wbytes","rios","wios","pgmajfault","cpu_some_us",)"
      R"("cpu_full_us","io_some_us","io_full_us","memory_some_us","memory_full_us",)"
      R"("memory_current","anon","file"],"rows":["a","b"],"absent":[[],[]]}}})" "\n";
  Recording r(header +
              R"({"t":1000000000,"cgroups":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],)"
              R"([0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]]})" "\n"
              R"({"t":3000000000,"cgroups":[[3000000,2000000,1000000,4,100000,2048,4096,2,4,)"
              R"(6,200000,0,20000,0,0,0,1048576,4096,8192],)"
              R"([1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]]})" "\n"
              R"({"t":4000000000,"cgroups":[[3500000,2000000,1500000,4,100000,2048,4096,2,4,)"
              R"(6,200000,0,20000,0,0,0,1048576,4096,8192],null]})" "\n");
  REQUIRE(r.samples.size() == 3);
  CHECK(From(r.Play(1), "cgroups") ==
        R"("cgroups":{"a":{"cores":1.50,"cpu":150.00,"usr":100.00,"sys":50.00,)"
        R"("throttledps":2.00,"throttled_pct":5.00,"riops":1.00,"wiops":2.00,)"
        R"("rkbyteps":1.00,"wkbyteps":2.00,"pgmajfaultps":3.00,"memory_current_kb":1024,)"
        R"("anon_kb":4,"file_kb":8,"pressure":{"cpu":{"some":10.00,"full":0.00},)"
        R"("io":{"some":1.00,"full":0.00},"memory":{"some":0.00,"full":0.00}}},)"
        R"("b":{"cores":0.00,"cpu":0.00,"usr":0.00,"sys":0.00,"throttledps":0.00,)"
        R"("throttled_pct":0.00,"riops":0.00,"wiops":0.00,"rkbyteps":0.00,"wkbyteps":0.00,)"
        R"("pgmajfaultps":0.00,"memory_current_kb":0,"anon_kb":0,"file_kb":0,)"
        R"("pressure":{"cpu":{"some":0.00,"full":0.00},"io":{"some":0.00,"full":0.00},)"
        R"("memory":{"some":0.00,"full":0.00}}}}})");
  CHECK(From(r.Play(2), "cgroups").find(R"("b":null)") != std::string::npos);
  SummaryInput in{"x.pgr", &r.samples[0], &r.samples[2], {}, false, nullptr};
  std::string text = SummaryText(in);
  CHECK(text.find("* Cgroup a\n        CPU usage: 1.17 cores\n") != std::string::npos);
  CHECK(text.find("* Cgroup b\n  not present at both ends of the span\n") != std::string::npos);
}

}  // TEST_SUITE

TEST_SUITE("row tables") {

TEST_CASE("cgroups: cgroup_io's rows show as each group's devices, not on their own") {
  const std::string header =
      R"({"format":"perfmonger-pgr","version":1,"num_core":1,"collectors":{)"
      R"("cgroups":{"fields":["usage_usec"],"rows":["a"]},)"
      R"("cgroup_io":{"fields":["rbytes","wbytes","rios","wios"],"rows":["a:vda","a:sdb"]}}})"
      "\n";
  Recording r(header + R"({"t":1000000000,"cgroups":[[0]],"cgroup_io":[[0,0,0,0],[0,0,0,0]]})"
                       "\n"
                       R"({"t":2000000000,"cgroups":[[0]],"cgroup_io":[[2048,1048576,2,4],null]})"
                       "\n");
  std::string line = r.Play(1);
  CHECK(From(line, "cgroup_io").empty());
  CHECK(line.find(R"("devices":{"vda":{"riops":2.00,"wiops":4.00,"rkbyteps":2.00,)"
                  R"("wkbyteps":1024.00},"sdb":null}}})") != std::string::npos);
  SummaryInput in{"x.pgr", &r.samples[0], &r.samples[1], {}, false, nullptr};
  CHECK(SummaryText(in).find("            vda: read 0.00 MB, write 1.00 MB\n") !=
        std::string::npos);
}

}  // TEST_SUITE
