// The gnuplot scripts `plot` writes, for the options that shape them:
// --offset-time, --plot-iops-max, the read/write choice, the legend
// threshold, the output type, and quoting of what the recording names:
// gnuplot reads '...' verbatim, and runs commands from `...` anywhere
// else, from '<cmd' data files and '|cmd' outputs.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "tools/plot_args.hh"
#include "test/playback/sample_rows.hh"
#include "tools/plot_scripts.hh"

namespace {

pm::RawSample At(int64_t seconds, uint64_t k, int disks) {
  pm::RawSample s;
  s.time_ns = seconds * 1000000000;
  pm::test::CpuCounters cpu = {10 * k, 0, 0, 10 * k, 0, 0, 0, 0, 0, 0};
  pm::test::SetCpu(s, cpu, {cpu});
  for (int i = 0; i < disks; ++i) {
    pm::test::DiskCounters d{};
    d[0] = d[4] = k;
    pm::test::AddDisk(s, "vd" + std::string(1, static_cast<char>('a' + i)), d);
  }
  return s;
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

std::string Script(const std::vector<pm::ChartScript>& charts, const std::string& name) {
  for (const pm::ChartScript& c : charts)
    if (c.name == name) return c.script;
  FAIL("no chart " << name);
  return "";
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
  setup.numkey_threshold = 3;        // vda vdb vdc total: 4 lines
  std::string transfer = Script(pm::MakeChartScripts(data, setup), "disk-transfer");
  CHECK(transfer.find("'vdc write'") != std::string::npos);
  CHECK(transfer.find("read'") == std::string::npos);
  CHECK(transfer.find("unset key") != std::string::npos);
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
