// How `plot` tells series apart (issue 49.1): every series of a chart its
// own look (colour and dash), units apart on their own axes, no await
// drawn for an interval without I/O, mark labels not printed over each
// other, and every chart named in `plot --help`.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "playback/reports/reports.hh"
#include "test/playback/sample_rows.hh"
#include "test/plot_styles.hh"
#include "tools/plot/plot_args.hh"
#include "test/tools/chart_script.hh"
#include "tools/plot/plot_scripts.hh"
#include "proto/columns/vmstat.hh"
#include "proto/columns/netstat.hh"

namespace {

using pm::test::Script;

using pm::test::AddRow;

// One disk reading in odd seconds only and writing every second, one
// interface, and the load, paging and TCP collectors, all moving.
pm::RawSample At(int64_t seconds) {
  auto k = static_cast<uint64_t>(seconds);
  pm::RawSample s;
  s.time_ns = seconds * 1000000000;
  pm::test::CpuCounters cpu = {10 * k + 10, 0, 0, 10 * k + 10, 0, 0, 0, 0, 0, 0};
  pm::test::SetCpu(s, cpu, {cpu});
  pm::test::DiskCounters d{};
  d[0] = (k + 1) / 2;  // reads: one in each interval ending at an odd second
  d[3] = d[0] * 4;     // 4 ms each
  d[4] = k * 3;        // writes
  d[7] = k * 6;
  d[9] = k * 500;
  pm::test::AddDisk(s, "vda", d);
  pm::test::NetCounters n{};
  n[0] = k * 4096;
  n[8] = k * 1024;
  pm::test::AddNet(s, "eth0", n);
  AddRow(s, "load", "", std::vector<uint64_t>{150 + k, 120, 100, 3, 300, 2 + k % 2, k % 2});
  std::vector<uint64_t> vm(pm::kVmstatFields.size());
  for (size_t i = 0; i < vm.size(); ++i) vm[i] = k * (i + 1);
  vm[4] = k * 400000;  // pgfault: hundreds of thousands a second, majflt 6
  AddRow(s, "vmstat", "", vm);
  std::vector<uint64_t> tcp(pm::kNetstatFields.size());
  for (size_t i = 0; i < tcp.size(); ++i) tcp[i] = k * (i + 1);
  AddRow(s, "netstat", "", tcp);
  return s;
}

pm::PlotData Recorded(const std::vector<double>& marks = {}) {
  pm::PlotData data;
  for (int64_t t = 0; t <= 4; ++t) data.OnSample(At(t));
  for (double m : marks) {
    pm::RecordingEvent mark;
    mark.kind = "mark";
    mark.time_ns = static_cast<int64_t>(m * 1e9);
    mark.label = "m" + std::to_string(m);
    data.OnEvent(mark);
  }
  return data;
}

}  // namespace

TEST_CASE("plot styles: no two series of a chart share colour and dash") {
  std::vector<pm::ChartScript> charts = pm::MakeChartScripts(Recorded(), pm::ChartSetup{});
  std::set<std::string> names;
  for (const pm::ChartScript& c : charts) {
    CAPTURE(c.name);
    names.insert(c.name);
    for (const auto& series : pm::test::PlotCommands(c.script)) {
      for (const pm::test::PlotSeries& s : series) CHECK(s.look.find(" lc ") == 0);
      CHECK(pm::test::SameLook(series) == "");
    }
  }
  for (const char* name : {"load", "paging", "faults", "tcp", "net", "disk-await", "disk-iops"})
    CHECK(names.count(name) == 1);
  // Many interfaces, past the palette: still no two alike.
  pm::ChartSetup wide;
  wide.numkey_threshold = 100;
  pm::PlotData many;
  for (int64_t t = 0; t < 3; ++t) {
    pm::RawSample s = At(t);
    for (int i = 1; i < 40; ++i) {
      pm::test::NetCounters n{};
      n[0] = static_cast<uint64_t>(t * (i + 1) * 1024);
      n[8] = n[0] / 2;
      pm::test::AddNet(s, "eth" + std::to_string(i), n);
    }
    many.OnSample(s);
  }
  auto net = pm::test::PlotCommands(Script(pm::MakeChartScripts(many, wide), "net"));
  REQUIRE(net.size() == 1);
  CHECK(net[0].size() == 80);  // 40 interfaces, received and sent
  CHECK(pm::test::SameLook(net[0]) == "");
}

TEST_CASE("plot styles: paging's kB/s and pages/s, faults and major faults on their own axes") {
  std::vector<pm::ChartScript> charts = pm::MakeChartScripts(Recorded(), pm::ChartSetup{});
  for (const char* name : {"paging", "faults"}) {
    CAPTURE(name);
    std::string script = Script(charts, name);
    CHECK(script.find("set y2tics") != std::string::npos);
    auto commands = pm::test::PlotCommands(script);
    REQUIRE(commands.size() == 1);
    for (const pm::test::PlotSeries& s : commands[0]) {
      CAPTURE(s.title);
      bool right = s.title.find("majflt") != std::string::npos ||
                   s.title.find("pswp") != std::string::npos;
      CHECK(s.y2 == right);
    }
  }
  CHECK(Script(charts, "paging").find("set ylabel 'paged (kB/s)'") != std::string::npos);
  // The run queue's running tasks count the recorder (sar's runq-sz not).
  CHECK(Script(charts, "load").find("running (recorder too)'") != std::string::npos);
  CHECK(Script(charts, "faults").find("set y2label 'major faults/s'") != std::string::npos);
}

TEST_CASE("plot styles: an interval without reads has no read await (a gap), not 0 ms") {
  pm::PlotData data = Recorded();
  size_t disk = pm::Reports().size();
  for (size_t r = 0; r < pm::Reports().size(); ++r)
    if (const pm::PlotSlot* slot = pm::PlotSlotOf(r); slot && slot->files.size() > 1 &&
                                                      slot->files[1].name == "disk-util.dat")
      disk = r;
  REQUIRE(disk < pm::Reports().size());
  std::vector<std::string> texts = data.BlockTexts(disk, 1);
  REQUIRE(!texts.empty());
  // Intervals starting at 0, 1, 2, 3 s (the rows' times): reads in the
  // first and third only. Columns: time, util, r_await, w_await, queue.
  CHECK(texts[0].find("0.000000\t50.000000\t4.000000\t2.000000\t") != std::string::npos);
  CHECK(texts[0].find("1.000000\t50.000000\tNaN\t2.000000\t") != std::string::npos);
  CHECK(texts[0].find("3.000000\t50.000000\tNaN\t2.000000\t") != std::string::npos);
  CHECK(Script(pm::MakeChartScripts(data, pm::ChartSetup{}), "disk-await")
            .find("set yrange [0:*]") != std::string::npos);

  // No I/O at all: every point undefined, an axis gnuplot can draw.
  pm::PlotData still;
  for (int64_t t = 0; t < 3; ++t) {
    pm::RawSample s = At(1);
    s.time_ns = t * 1000000000;
    still.OnSample(s);
  }
  CHECK(Script(pm::MakeChartScripts(still, pm::ChartSetup{}), "disk-await")
            .find("set yrange [0:1]") != std::string::npos);
}

TEST_CASE("plot styles: mark labels close together go lower down or are left out") {
  // A 3 s axis (the rows' times, 0 to 3 s): labels closer than 2 % of it
  // (0.06 s) would overlap.
  std::string cpu = Script(pm::MakeChartScripts(Recorded({1.0, 1.03, 1.05, 3.0}),
                                                pm::ChartSetup{}), "cpu");
  CHECK(cpu.find("set xrange [0.000000:3.000000]") != std::string::npos);
  CHECK(cpu.find("set label 'm1.000000' at 1.000000, graph 0.98 ") != std::string::npos);
  CHECK(cpu.find("set label 'm1.030000' at 1.030000, graph 0.48 ") != std::string::npos);
  CHECK(cpu.find("set label 'm1.050000'") == std::string::npos);  // no room left
  CHECK(cpu.find("set arrow from 1.050000, graph 0") != std::string::npos);  // its line stays
  CHECK(cpu.find("set label 'm3.000000' at 3.000000, graph 0.98 ") != std::string::npos);
}

TEST_CASE("plot styles: plot --help names every chart") {
  std::string help = pm::PlotCommand().Usage();
  for (size_t r = 0; r < pm::Reports().size(); ++r)
    if (const pm::PlotSlot* slot = pm::PlotSlotOf(r))
      for (const pm::ChartSpec& spec : slot->charts) {
        CAPTURE(spec.name);
        CHECK(help.find("\n  " + std::string(spec.name) + " ") != std::string::npos);
      }
}
