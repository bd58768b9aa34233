// The gnuplot scripts `plot` writes, for the options that shape them:
// --offset-time, --plot-iops-max, the read/write choice, the legend
// threshold, the output type, and quoting of what the recording names:
// gnuplot reads '...' verbatim, and runs commands from `...` anywhere
// else, from '<cmd' data files and '|cmd' outputs.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "tools/plot/plot_args.hh"
#include "test/playback/sample_rows.hh"
#include "playback/reports/reports.hh"
#include "test/tools/chart_script.hh"
#include "tools/plot/plot_scripts.hh"
#include "tools/plot/plot_series.hh"

namespace {

using pm::test::Script;

// `disks` disks vda, vdb, ... each doing k reads and writes; `idle` more
// (loop0, ...) whose counters never move; `nets` interfaces eth0, eth1,
// ..., eth<i> receiving (i + 1) KiB and sending half that per second.
pm::RawSample At(int64_t seconds, uint64_t k, int disks, int idle = 0, int nets = 0) {
  pm::RawSample s;
  s.time_ns = seconds * 1000000000;
  pm::test::CpuCounters cpu = {10 * k, 0, 0, 10 * k, 0, 0, 0, 0, 0, 0};
  pm::test::SetCpu(s, cpu, {cpu});
  for (int i = 0; i < disks; ++i) {
    pm::test::DiskCounters d{};
    d[0] = d[4] = k;
    pm::test::AddDisk(s, "vd" + std::string(1, static_cast<char>('a' + i)), d);
  }
  for (int i = 0; i < idle; ++i) {
    pm::test::DiskCounters d{};
    d[0] = d[4] = 77;
    pm::test::AddDisk(s, "loop" + std::to_string(i), d);
  }
  for (int i = 0; i < nets; ++i) {
    pm::test::NetCounters n{};
    n[0] = k * 1024 * static_cast<uint64_t>(i + 1);
    n[8] = n[0] / 2;
    pm::test::AddNet(s, "eth" + std::to_string(i), n);
  }
  return s;
}

pm::PlotData Devices(int disks, int idle, int nets) {
  pm::PlotData data;
  for (int64_t t = 0; t < 4; ++t)
    data.OnSample(At(t, static_cast<uint64_t>(t), disks, idle, nets));
  return data;
}

// The titles of the series a script plots, in order; "" for one without.
std::vector<std::string> SeriesTitles(const std::string& script) {
  std::vector<std::string> titles;
  size_t plot = script.find("\nplot ");
  REQUIRE(plot != std::string::npos);
  for (size_t at = script.find(" with lines", plot); at != std::string::npos;
       at = script.find(" with lines", at + 1)) {
    size_t end = script.find('\n', at);
    std::string series = script.substr(at, end - at);
    size_t t = series.find(" title '");
    titles.push_back(t == std::string::npos
                         ? ""
                         : series.substr(t + 8, series.find('\'', t + 8) - t - 8));
  }
  return titles;
}

pm::PlotData Data(int disks) {
  pm::PlotData data;
  for (int64_t t = 0; t < 4; ++t) data.OnSample(At(t, static_cast<uint64_t>(t), disks));
  pm::RecordingEvent mark;
  mark.kind = "mark";
  mark.time_ns = 2000000000;
  mark.label = "it's";
  data.OnEvent(mark);
  return data;
}

}  // namespace

TEST_CASE("plot scripts: charts, output names, time axis and marks") {
  pm::ChartSetup setup;
  setup.type = pm::ChartType::kSvg;
  setup.output_prefix = "/out/run-";
  setup.data_prefix = "run-";
  setup.offset_time = 1.5;
  setup.subtitle = "host db1, started 2026-12-01 00:00:00 UTC, q=\"x\"";
  pm::PlotData data = Data(1);
  std::vector<pm::ChartScript> charts = pm::MakeChartScripts(data, setup);
  std::vector<std::string> names;
  for (const auto& c : charts) names.push_back(c.name);
  CHECK(names == std::vector<std::string>{"cpu", "allcpu", "disk-iops", "disk-transfer",
                                          "disk-util", "disk-await"});
  std::string cpu = Script(charts, "cpu");
  CHECK(cpu.find("set terminal svg ") != std::string::npos);
  CHECK(cpu.find("set output '/out/run-cpu.svg'\n") != std::string::npos);
  CHECK(cpu.find("'./run-cpu.dat' index 0") != std::string::npos);
  CHECK(cpu.find("set xrange [1.500000:") != std::string::npos);  // --offset-time
  CHECK(cpu.find("set title 'CPU usage, all cores' . \"\\n\" . 'host db1, started "
                 "2026-12-01 00:00:00 UTC, q=\"x\"' noenhanced\n") != std::string::npos);
  CHECK(cpu.find("set label 'it' . \"'\" . 's' at 2.000000") != std::string::npos);
  CHECK(cpu.find("set yrange [0:100]") != std::string::npos);     // one core
}

TEST_CASE("plot scripts: disk directions, IOPS maximum and the legend threshold") {
  pm::ChartSetup setup;
  setup.directions = {true, false};  // --plot-read-only
  setup.iops_max = 500;
  pm::PlotData data = Data(3);
  std::string iops = Script(pm::MakeChartScripts(data, setup), "disk-iops");
  CHECK(iops.find("'vda read'") != std::string::npos);
  CHECK(iops.find("'total read'") != std::string::npos);  // more than one disk
  CHECK(iops.find("write'") == std::string::npos);
  CHECK(iops.find("set yrange [0:500.000000]") != std::string::npos);
  CHECK(iops.find("set key outside") != std::string::npos);

  setup.directions = {false, true};  // --plot-write-only
  std::string transfer = Script(pm::MakeChartScripts(data, setup), "disk-transfer");
  CHECK(transfer.find("'vdc write'") != std::string::npos);
  CHECK(transfer.find("read'") == std::string::npos);
  CHECK(transfer.find("set key outside") != std::string::npos);
  CHECK(transfer.find("set yrange [0:*]") != std::string::npos);  // IOPS max: IOPS only
}

TEST_CASE("plot scripts: every string is single-quoted, every file name opened as a file") {
  struct Case { std::string text, quoted; };
  const Case quotes[] = {
      {"", "''"},
      {"it's", "'it' . \"'\" . 's'"},
      {"'", "\"'\""},  // gnuplot ends '...' at a '' first or after a quote
      {"''a'", "\"'\" . \"'\" . 'a' . \"'\""},
      {"`touch x` \"$(id)\" system(\"id\"); # @x", "'`touch x` \"$(id)\" system(\"id\"); # @x'"},
      {"a\nb\rc\x7f\x01", "'a?b?c?\?'"},                       // a control byte ends a line
      {"a\xc2\x9b" "31m\xc2\xa0", "'a?\?31m\xc2\xa0'"},           // C1 CSI, NBSP kept
      {"caf\xc3\xa9 \xe2\x82\xac", "'caf\xc3\xa9 \xe2\x82\xac'"},  // UTF-8 is kept
      {"\xff\xc3(\xed\xa0\x80", "'?\?(?\?\?'"},  // not UTF-8: an SVG would not parse
      {"cut \xe2\x82", "'cut ?\?'"},
  };
  for (const Case& c : quotes) {
    CAPTURE(c.text);
    CHECK(pm::gp::Quote(c.text) == c.quoted);
  }
  CHECK(pm::gp::QuoteLines({"CPU", "host 'h'"}) ==
        "'CPU' . \"\\n\" . 'host ' . \"'\" . 'h' . \"'\"");
  CHECK(pm::gp::Path("/out/run-cpu.svg") == "'/out/run-cpu.svg'");
  CHECK(pm::gp::Path("<touch x;cpu.dat") == "'./<touch x;cpu.dat'");
  CHECK(pm::gp::Path("|touch x;cpu.png") == "'./|touch x;cpu.png'");
  CHECK(pm::gp::Path("it's/\xff.dat") == "'./it' . \"'\" . 's/\xff.dat'");  // as it is
  CHECK_THROWS_AS(pm::gp::Path("a\nb.dat"), pm::UsageError);
}

TEST_CASE("plot scripts: idle devices are left out and named; a total only for two or more") {
  pm::ChartSetup setup;
  std::vector<pm::ChartScript> charts = pm::MakeChartScripts(Devices(1, 2, 0), setup);
  std::string iops = Script(charts, "disk-iops");
  CHECK(SeriesTitles(iops) == std::vector<std::string>{"vda read", "vda write"});
  CHECK(iops.find("'idle, not drawn: loop0, loop1'") != std::string::npos);

  setup.all_devices = true;  // --all-devices: drawn, and then a total
  iops = Script(pm::MakeChartScripts(Devices(1, 2, 0), setup), "disk-iops");
  CHECK(SeriesTitles(iops) ==
        std::vector<std::string>{"loop0 read", "loop0 write", "loop1 read", "loop1 write",
                                 "vda read", "vda write", "total read", "total write"});
  CHECK(iops.find("idle, not drawn") == std::string::npos);

  setup.all_devices = false;
  iops = Script(pm::MakeChartScripts(Devices(2, 1, 0), setup), "disk-iops");
  CHECK(SeriesTitles(iops) == std::vector<std::string>{"vda read", "vda write", "vdb read",
                                                       "vdb write", "total read", "total write"});
  // Nothing moved at all: the chart stays, every disk drawn flat.
  iops = Script(pm::MakeChartScripts(Devices(0, 2, 0), setup), "disk-iops");
  CHECK(SeriesTitles(iops) ==
        std::vector<std::string>{"loop0 read", "loop0 write", "loop1 read", "loop1 write",
                                 "total read", "total write"});
}

TEST_CASE("plot scripts: twelve interfaces keep the busiest labelled, the rest as others") {
  pm::ChartSetup setup;
  setup.data_prefix = "run-";
  std::vector<pm::ChartScript> charts = pm::MakeChartScripts(Devices(0, 0, 12), setup);
  const pm::ChartScript* net = nullptr;
  for (const pm::ChartScript& c : charts)
    if (c.name == "net") net = &c;
  REQUIRE(net != nullptr);
  // Ten legend entries at most: the four busiest (eth11 down to eth8),
  // then the others, every series titled.
  CHECK(SeriesTitles(net->script) ==
        std::vector<std::string>{"eth11 received", "eth11 sent", "eth10 received", "eth10 sent",
                                 "eth9 received", "eth9 sent", "eth8 received", "eth8 sent",
                                 "others received", "others sent"});
  CHECK(net->script.find("set key outside") != std::string::npos);
  CHECK(net->script.find("'others: eth7, eth6, eth5, eth4, eth3, eth2, eth1, eth0'") !=
        std::string::npos);
  CHECK(net->script.find("'./run-net-others.dat' index 0 using 1:(($2)*1)") != std::string::npos);
  CHECK(net->script.find("set ylabel 'traffic (KiB/s)'\n") != std::string::npos);  // 12 KiB/s peak
  // The others' file: eth0..eth7 summed, (1+...+8) KiB/s received, half sent.
  REQUIRE(net->files.size() == 1);
  CHECK(net->files[0].name == "net-others.dat");
  CHECK(net->files[0].text ==
        "# elapsed_time\tothers_1\tothers_2\n"
        "0.000000\t36.000000\t18.000000\n"
        "1.000000\t36.000000\t18.000000\n"
        "2.000000\t36.000000\t18.000000\n");

  setup.numkey_threshold = 30;  // room for all: none folded
  std::string all = Script(pm::MakeChartScripts(Devices(0, 0, 12), setup), "net");
  CHECK(SeriesTitles(all).size() == 24);
  CHECK(all.find("others") == std::string::npos);
}

TEST_CASE("plot series: every chart line of every report is a sum of columns") {
  for (size_t r = 0; r < pm::Reports().size(); ++r)
    if (const pm::PlotSlot* slot = pm::PlotSlotOf(r))
      for (const pm::ChartSpec& spec : slot->charts)
        for (const pm::ChartLine& line : spec.lines) {
          CAPTURE(spec.name);
          CHECK_NOTHROW(pm::ExprColumns(line.expr));
        }
  CHECK(pm::ExprColumns("$2+$13") == std::vector<size_t>{2, 13});
  CHECK_THROWS_AS(pm::ExprColumns("$2*8"), std::logic_error);
  pm::BlockRows rows = pm::ParseBlock("0.000000\t1.5\t2\n\n1.000000\t0\t4\n");
  CHECK(rows.gap_before == std::vector<bool>{false, true});
  pm::SeriesStats st = pm::Measure(rows, "$2+$3");
  CHECK(st.volume == 7.5);
  CHECK(st.peak == 4);
}

TEST_CASE("plot scripts: throughput axes in the unit the peak calls for, bits on request") {
  // net.dat's kB/s are KiB/s: 900000 of them peak at 879 MiB/s, 7.4 Gbit/s.
  pm::AxisUnit mib = pm::ThroughputUnit(900000, 1024, false);
  CHECK(mib.name == "MiB/s");
  CHECK(mib.factor == doctest::Approx(1.0 / 1024));
  pm::AxisUnit gbit = pm::ThroughputUnit(900000, 1024, true);
  CHECK(gbit.name == "Gbit/s");
  CHECK(gbit.factor == doctest::Approx(8 * 1024 / 1e9));
  CHECK(pm::ThroughputUnit(0.5, 1024, false).name == "B/s");        // 512 B/s
  CHECK(pm::ThroughputUnit(3, 1048576, false).name == "MiB/s");     // disk.dat's MB/s
  CHECK(pm::ThroughputUnit(5000, 1048576, false).name == "GiB/s");
  CHECK(pm::ThroughputUnit(0, 1024, false).name == "B/s");

  pm::ChartSetup setup;
  setup.bits = true;  // the network chart only
  std::vector<pm::ChartScript> charts = pm::MakeChartScripts(Devices(2, 0, 2), setup);
  std::string net = Script(charts, "net");
  CHECK(net.find("set ylabel 'traffic (kbit/s)'\n") != std::string::npos);  // 16.4 kbit/s
  CHECK(net.find("using 1:(($2)*8.192)") != std::string::npos);
  CHECK(Script(charts, "disk-transfer").find("set ylabel 'transfer (B/s)'\n") != std::string::npos);
}

TEST_CASE("plot: a pair within one CPU tick keeps its line; only the CPU charts skip it") {
  pm::PlotData data;
  data.OnSample(At(0, 0, 1));
  data.OnSample(At(1, 1, 1));
  pm::RawSample again = At(1, 1, 1);  // 0.25 ms later, not a tick passed
  again.time_ns += 250000;
  data.OnSample(again);
  data.OnSample(At(2, 2, 1));
  CHECK(data.pairs() == 3);
  std::vector<pm::ChartScript> charts = pm::MakeChartScripts(data, pm::ChartSetup{});
  std::string script = Script(charts, "cpu");
  CHECK(script.find("zw(") == std::string::npos);
  CHECK(script.find("using 1:(($2+$3+$4+$5+$6+$7+$8+$9+$10) == 0 ? NaN : ($2))") !=
        std::string::npos);
  CHECK(Script(charts, "disk-iops").find("using 1:($2)") != std::string::npos);
}

TEST_CASE("plot scripts: --wall-clock puts the time axis, marks and pauses in UTC") {
  pm::PlotData data = Data(1);  // samples at Unix 0..3 s, a mark at 2 s
  pm::RecordingEvent pause, resume;
  pause.kind = "pause";
  pause.time_ns = 2500000000;
  resume.kind = "resume";
  resume.time_ns = 2700000000;
  data.OnEvent(pause);
  data.OnEvent(resume);
  pm::ChartSetup setup;
  setup.wall_clock = 1796187139.5;  // as if the first sample were then
  for (const pm::ChartScript& c : pm::MakeChartScripts(data, setup)) {
    CAPTURE(c.name);
    CHECK(c.script.find("using 1:") == std::string::npos);
    if (c.name == "allcpu") continue;
    CHECK(c.script.find("set xlabel 'time (UTC)'\nset format x '%H:%M:%S' timedate\n") !=
          std::string::npos);
    CHECK(c.script.find("set xrange [1796187139.500000:1796187141.500000]") != std::string::npos);
    CHECK(c.script.find("using ($1+1796187139.500000):(") != std::string::npos);
    CHECK(c.script.find("set arrow from 1796187141.500000, graph 0") != std::string::npos);
    CHECK(c.script.find("rect from 1796187142.000000, graph 0 to 1796187142.200000") !=
          std::string::npos);
  }
  std::string strips = Script(pm::MakeChartScripts(data, setup), "allcpu");
  CHECK(strips.find("set label 9100 'time (UTC)'") != std::string::npos);
  CHECK(strips.find("set format x '%H:%M:%S' timedate") != std::string::npos);
}
