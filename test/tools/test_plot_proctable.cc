// plot's chart of the process table (record --record-procs): a line per
// process of its CPU over time, each its own colour, the busiest kept past
// the legend threshold and the rest summed as others; its data file with
// a 0 and a gap after a process's last interval before one it sat out.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "playback/outputs/plot_data.hh"
#include "playback/reading/proc_table_event.hh"
#include "test/playback/sample_rows.hh"
#include "test/plot_styles.hh"
#include "test/tools/chart_script.hh"
#include "tools/plot/plot_scripts.hh"

namespace {

constexpr int64_t kSecond = 1000000000;

pm::RawSample At(int64_t t) {
  pm::RawSample s;
  s.time_ns = s.mono_ns = t * kSecond;
  auto k = static_cast<uint64_t>(t);
  pm::test::CpuCounters cpu = {10 * k, 0, 0, 10 * k, 0, 0, 0, 0, 0, 0};
  pm::test::SetCpu(s, cpu, {cpu});
  return s;
}

// `cpu_pct` of a core over `seconds`.
pm::ProcTableRow Row(uint32_t pid, const std::string& comm, double cpu_pct, double seconds) {
  pm::ProcTableRow r;
  r.pid = pid;
  r.start = 1000 + pid;
  r.comm = comm;
  r.cpu_ns = static_cast<uint64_t>(cpu_pct * 1e7 * seconds);  // % × 10 ms a second
  r.utime_us = r.cpu_ns / 1000;
  return r;
}

// Twelve processes p0..p11 (pids 100..111) using 1 % .. 12 % of a core
// each second, and "brief" (pid 200) 80 % in the second and fifth; the
// sixth sample has no process table, the seventh's covers two seconds.
pm::PlotData Recorded() {
  pm::PlotData data;
  data.OnSample(At(0));
  for (int64_t t = 1; t <= 7; ++t) {
    if (t == 6) {  // a sample the table skipped (it scans every Nth)
      data.OnSample(At(t));
      continue;
    }
    auto e = std::make_shared<pm::ProcTableEvent>();
    const int64_t since = t == 7 ? 5 : t - 1;
    const auto seconds = static_cast<double>(t - since);
    e->since_mono_ns = since * kSecond;
    for (uint32_t i = 0; i < 12; ++i)
      e->rows.push_back(Row(100 + i, "p" + std::to_string(i), i + 1, seconds));
    if (t == 2 || t == 5) e->rows.push_back(Row(200, "brief", 80, seconds));
    pm::RecordingEvent procs;
    procs.kind = "procs";
    procs.time_ns = procs.mono_ns = t * kSecond;
    procs.procs = e;
    data.OnEvent(procs);
    data.OnSample(At(t));
  }
  return data;
}

}  // namespace

TEST_CASE("plot proctable-cpu: the busiest processes a line each, own colours, the rest others") {
  pm::PlotData data = Recorded();
  std::vector<pm::ChartScript> charts = pm::MakeChartScripts(data, pm::ChartSetup{});
  std::string script = pm::test::Script(charts, "proctable-cpu");
  auto commands = pm::test::PlotCommands(script);
  REQUIRE(commands.size() == 1);
  // Ten legend entries: the nine busiest by their CPU over the window
  // (brief's 80 in two seconds above p11's 12 in each of five), others.
  std::vector<std::string> titles;
  for (const pm::test::PlotSeries& s : commands[0]) titles.push_back(s.title);
  CHECK(titles == std::vector<std::string>{"200 brief", "111 p11", "110 p10", "109 p9", "108 p8",
                                           "107 p7", "106 p6", "105 p5", "104 p4", "others"});
  CHECK(pm::test::SameLook(commands[0]) == "");
  CHECK(script.find("'others: 103 p3, 102 p2, 101 p1, 100 p0'") != std::string::npos);
  CHECK(script.find("set ylabel '%CPU (100 = one core busy)'") != std::string::npos);

  pm::ChartSetup wide;
  wide.numkey_threshold = 100;  // room for all
  commands = pm::test::PlotCommands(pm::test::Script(pm::MakeChartScripts(data, wide),
                                                     "proctable-cpu"));
  REQUIRE(commands.size() == 1);
  CHECK(commands[0].size() == 13);
  CHECK(pm::test::SameLook(commands[0]) == "");
}

TEST_CASE("plot proctable.dat: a block per process by pid, its %CPU per interval, 0 and a gap") {
  pm::PlotData data = Recorded();
  std::vector<std::string> blocks = data.Blocks("proctable.dat");
  REQUIRE(blocks.size() == 13);
  CHECK(blocks.front() == "100 p0");
  CHECK(blocks.back() == "200 brief");
  const std::string file = data.File("proctable.dat");
  // Each pair's line stamped with its first sample's time: brief ran in
  // [1, 2], is 0 in [2, 3], not drawn until it runs again in [4, 5], 0
  // in the table's next line (the pair [6, 7]: [5, 6] has none).
  CHECK(file.ends_with("# process: 200 brief\n# elapsed_time\t%cpu\t%usr\t%sys\n"
                       "1.000000\t80.000000\t80.000000\t0.000000\n"
                       "2.000000\t0.000000\t0.000000\t0.000000\n\n"
                       "4.000000\t80.000000\t80.000000\t0.000000\n"
                       "6.000000\t0.000000\t0.000000\t0.000000\n"));
  CHECK(file.find("# process: 111 p11\n# elapsed_time\t%cpu\t%usr\t%sys\n"
                  "0.000000\t12.000000\t12.000000\t0.000000\n"
                  "1.000000\t12.000000\t12.000000\t0.000000\n") != std::string::npos);
  // Over its own line's two seconds: 12 % still.
  CHECK(file.find("4.000000\t12.000000\t12.000000\t0.000000\n"
                  "6.000000\t12.000000\t12.000000\t0.000000\n") != std::string::npos);
  // Without a process table: no block, no chart.
  pm::PlotData plain;
  for (int64_t t = 0; t < 3; ++t) plain.OnSample(At(t));
  CHECK(plain.Blocks("proctable.dat").empty());
  for (const pm::ChartScript& c : pm::MakeChartScripts(plain, pm::ChartSetup{}))
    CHECK(c.name != "proctable-cpu");
}
