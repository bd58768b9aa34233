// `perfmonger plot` end to end: the real binary and Debian's gnuplot. The
// data files match PerfMonger's formatter byte for byte; every chart is a
// real PDF, PNG or SVG, and a PNG decoded shows a drawing, not a blank
// page; a recording with a pause and marks shows them; --disk-only
// filters; without gnuplot the error names the package and --save still
// leaves the data and scripts.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"
#include "test/process/plot_checks.hh"

namespace pm::test {
namespace {

const std::vector<std::string> kCharts = {"cpu", "allcpu", "disk-iops",
                                          "disk-transfer", "mem", "net"};

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

}  // namespace

TEST_CASE("plot -T png --save: PerfMonger's data files and six drawn charts") {
  TempDir dir;
  std::string out = dir / "new/charts";  // made, parents too
  ExitResult r = RunPlot({"-T", "png", "--save", "-o", out, LegacyFile("small-all.pgr.gz")});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  for (const char* dat : {"cpu", "disk", "mem"})
    CHECK(ReadFileBytes(out + "/" + dat + ".dat") ==
          ReadFileBytes(LegacyFile(std::string("small-all.pgr.plot-formatted.") + dat + ".dat")));
  CHECK(ReadFileBytes(out + "/net.dat").find("# interface: lo\n") != std::string::npos);
  // --save lists the data files and scripts too, before the charts.
  CHECK(r.out.starts_with(out + "/cpu.dat\n" + out + "/disk.dat\n"));
  CHECK(r.out.find(out + "/cpu.gp\n") < r.out.find(out + "/cpu.png\n"));
  for (const std::string& chart : kCharts) {
    CHECK(Exists(out + "/" + chart + ".gp"));
    CheckDrawnPng(out + "/" + chart + ".png");
  }
  // The stacked CPU chart has its %sys layer (sys time in one pair).
  CHECK(CheckDrawnPng(out + "/cpu.png").colours.count(0xff7f0e) == 1);
}

TEST_CASE("plot: PDF by default, SVG with -T svg, --prefix before every name") {
  TempDir dir;
  std::filesystem::create_directory(dir / "tmp");
  ExitResult pdf = RunPlot({"-o", dir.path(), LegacyFile("busy100.pgr")},
                           {"TMPDIR=" + (dir / "tmp")});
  CAPTURE(pdf.err);
  REQUIRE(pdf.code == 0);
  // busy100 was recorded without memory: no such chart.
  for (const char* chart : {"cpu", "allcpu", "disk-iops", "disk-transfer"})
    CheckChartFile(dir / (std::string(chart) + ".pdf"), "pdf");
  CHECK_FALSE(Exists(dir / "mem.pdf"));
  CHECK_FALSE(Exists(dir / "cpu.dat"));  // not kept without --save
  CHECK_FALSE(Exists(dir / "cpu.gp"));
  CHECK(std::filesystem::is_empty(dir / "tmp"));  // the scratch directory is gone
  // What it wrote, one file a line, named under -o as given.
  CHECK(pdf.out == dir / "cpu.pdf\n" + dir / "allcpu.pdf\n" + dir / "disk-iops.pdf\n" +
                       dir / "disk-transfer.pdf\n" + dir / "net.pdf\n");

  ExitResult svg = RunPlot({"-T", "svg", "-p", "run1-", "-s", "-o", dir.path(),
                            LegacyFile("small-all.pgr.gz")});
  CAPTURE(svg.err);
  REQUIRE(svg.code == 0);
  for (const std::string& chart : kCharts) {
    CheckChartFile(dir / ("run1-" + chart + ".svg"), "svg");
    CHECK(Exists(dir / ("run1-" + chart + ".gp")));
  }
  // Each SVG's document title is its chart's, not gnuplot's "Gnuplot".
  std::string svg_text = ReadFileBytes(dir / "run1-mem.svg");
  CHECK(svg_text.find("<title>Memory \u2014 host vm, started 2026-11-30 23:41:43 UTC</title>") !=
        std::string::npos);
  CHECK(svg_text.find("<title>Gnuplot</title>") == std::string::npos);
  CHECK(ReadFileBytes(dir / "run1-cpu.dat") ==
        ReadFileBytes(LegacyFile("small-all.pgr.plot-formatted.cpu.dat")));
}

TEST_CASE("plot: a recording with a pause and marks shows a gap, a band and labelled lines") {
  TempDir dir;
  FakeProc fake(CountersAt(0));
  std::string path = dir / "paused.pgr.gz";
  {
    CommandSession s({"record", "--root", fake.root(), "-l", path, "-i", "3600",
                      "--meta", "run=plot test"});
    s.ReadReadyLine();
    uint64_t k = 0;
    for (const char* command :
         {"sample", "sample", "mark warm-up done", "sample", "pause", "resume", "sample",
          "mark it's \"quoted\"", "sample", "sample"}) {
      fake.Write(CountersAt(++k * 10));
      CAPTURE(command);
      REQUIRE(bool(s.Command(command).root()["ok"]));
    }
    s.CloseStop();
    REQUIRE(s.Wait().code == 0);
  }
  std::string out = dir / "charts";
  ExitResult r = RunPlot({"-T", "png", "-s", "-o", out, path});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  // No line spans the pause: a blank line splits each block there.
  std::string cpu = ReadFileBytes(out + "/cpu.dat");
  std::string first_block = cpu.substr(0, cpu.find("\n\n\n"));
  CHECK(first_block.find("\n\n") != std::string::npos);
  std::string script = ReadFileBytes(out + "/cpu.gp");
  CHECK(script.find("'warm-up done'") != std::string::npos);
  CHECK(script.find("'it' . \"'\" . 's \"quoted\"'") != std::string::npos);
  CHECK(script.find("'paused'") != std::string::npos);
  CHECK(script.find("run=plot test") != std::string::npos);  // the title's metadata
  for (const std::string& chart : kCharts) {
    PngImage img = CheckDrawnPng(out + "/" + chart + ".png");
    CAPTURE(chart);
    CHECK(img.colours.count(0xc00000) == 1);  // the marks' red lines
    if (chart != "allcpu") CHECK(img.colours.count(0xe4e4e4) == 1);  // the paused band
  }
  // The same on a wall-clock axis: marks and the band where they were.
  std::string wall = dir / "wall";
  ExitResult w = RunPlot({"-T", "png", "-s", "--wall-clock", "-o", wall, path});
  CAPTURE(w.err);
  REQUIRE(w.code == 0);
  std::string net = ReadFileBytes(wall + "/net.gp");
  CHECK(net.find("set xlabel 'time (UTC)'") != std::string::npos);
  CHECK(net.find("timedate") != std::string::npos);
  PngImage img = CheckDrawnPng(wall + "/net.png");
  CHECK(img.colours.count(0xc00000) == 1);
  CHECK(img.colours.count(0xe4e4e4) == 1);
}

TEST_CASE("plot --disk-only: only the matching disks are written and drawn") {
  TempDir dir;
  ExitResult r = RunPlot({"-s", "--disk-only", "^sda$", "-o", dir.path(),
                          LegacyFile("busy100.pgr.gz")});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  std::string disk = ReadFileBytes(dir / "disk.dat");
  CHECK(disk.find("# device: sda\n") != std::string::npos);
  CHECK(disk.find("# device: sda1") == std::string::npos);
  CHECK(disk.find("# device: sda2") == std::string::npos);
  CHECK(disk.find("# device: total\n") != std::string::npos);
  std::string iops = ReadFileBytes(dir / "disk-iops.gp");
  CHECK(iops.find("'sda read'") != std::string::npos);
  CHECK(iops.find("sda1") == std::string::npos);
  CheckChartFile(dir / "disk-iops.pdf", "pdf");

  ExitResult none = RunPlot({"-s", "--disk-only", "^nvme", "-o", dir / "none",
                             LegacyFile("busy100.pgr.gz")});
  REQUIRE(none.code == 0);
  CHECK_FALSE(Exists(dir / "none/disk-iops.pdf"));  // no disk left: no disk chart
  // Not silent: the warning names the disks there are.
  CHECK(none.err.find("--disk-only '^nvme' matches none of its disks (sda, sda1, sda2): "
                      "no disk chart\n") != std::string::npos);
  CHECK(none.out.find("cpu.pdf\n") != std::string::npos);
  CHECK(none.out.find("disk-iops") == std::string::npos);
  CHECK(r.err.find("matches none") == std::string::npos);
  CheckChartFile(dir / "none/cpu.pdf", "pdf");
}

TEST_CASE("plot without gnuplot: exit 1 naming gnuplot-nox; --save still writes") {
  TempDir dir;
  ExitResult r = RunPlot({"-s", "-o", dir.path(), LegacyFile("small-all.pgr.gz")},
                         {"PATH=" + dir.path()});
  CHECK(r.code == 1);
  CHECK(r.err.find("perfmonger plot: error: gnuplot is not on PATH") == 0);
  CHECK(r.err.find("gnuplot-nox") != std::string::npos);
  CHECK(SplitLines(r.err).size() == 1);
  for (const char* kept : {"cpu.dat", "disk.dat", "mem.dat", "net.dat", "cpu.gp", "net.gp"})
    CHECK(Exists(dir / kept));
  CHECK_FALSE(Exists(dir / "cpu.pdf"));

  ExitResult named = RunPlot({"--with-gnuplot", dir / "no-such-gnuplot", "-o", dir.path(),
                              LegacyFile("busy100.pgr")});
  CHECK(named.code == 1);
  CHECK(named.err.find("no gnuplot at") != std::string::npos);
}

TEST_CASE("plot: a failing gnuplot and bad options are errors, exit 1") {
  TempDir dir;
  ExitResult failing = RunPlot({"--with-gnuplot", "/bin/false", "-o", dir.path(),
                                LegacyFile("busy100.pgr")});
  CHECK(failing.code == 1);
  CHECK(failing.err.find("failed (exit status 1)") != std::string::npos);
  ExitResult type = RunPlot({"-T", "gif", LegacyFile("busy100.pgr")});
  CHECK(type.code == 1);
  CHECK(type.err.find("give pdf, png or svg") != std::string::npos);
  ExitResult no_file = RunPlot({});
  CHECK(no_file.code == 1);
  CHECK(no_file.err.find("no recording named") != std::string::npos);
  ExitResult flag = RunPlot({"--save=maybe", LegacyFile("busy100.pgr")});
  CHECK(flag.code == 1);
  ExitResult late = RunPlot({"--offset-time", "60", "-o", dir.path(), LegacyFile("busy100.pgr")});
  CHECK(late.code == 1);
  CHECK(late.err.find("last point is at 6.001 s") != std::string::npos);
  ExitResult help = RunPlot({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.find("--plot-numkey-threshold") != std::string::npos);
}

}  // namespace pm::test

namespace pm::test {
namespace {

// Counters at step k: eth0 and ten veths moving, eth<i> faster with i;
// ifb0 never moving; vda moving, loop0 never (it did I/O before).
FakeCounters ManyDevicesAt(uint64_t k) {
  FakeCounters c = CountersAt(k);
  for (uint64_t i = 0; i < 10; ++i) {
    std::array<uint64_t, 16> n{};
    n[0] = 1000 + k * 20'000 * (i + 1);
    n[1] = 10 + k * (i + 1);
    n[8] = 500 + k * 3'000 * (i + 1);
    n[9] = 5 + k;
    c.more_nets.push_back({"veth" + std::to_string(i), n});
  }
  c.more_nets.push_back({"ifb0", {}});
  c.more_disks.push_back({"loop0", {40, 0, 320, 4, 0, 0, 0, 0, 0, 4, 4}});
  return c;
}

// The series of a saved script's plot command, each "FILE index N ...".
std::vector<std::string> PlotSeries(const std::string& script) {
  std::vector<std::string> series;
  size_t plot = script.find("\nplot ");
  REQUIRE(plot != std::string::npos);
  for (size_t at = plot + 6; at < script.size();) {
    size_t end = script.find('\n', at);
    std::string line = script.substr(at, end - at);
    series.push_back(line.substr(line.find_first_not_of(' ')));
    if (!line.ends_with(", \\")) break;
    at = end + 1;
  }
  return series;
}

}  // namespace

TEST_CASE("plot: twelve interfaces and idle devices: every drawn series labelled or others") {
  TempDir dir;
  FakeProc fake(ManyDevicesAt(0));
  std::string path = dir / "many.pgr";
  std::vector<FakeCounters> steps;
  for (uint64_t k = 0; k < 5; ++k) steps.push_back(ManyDevicesAt(k));
  RecordFake(fake, path, steps, {"--no-gzip"});
  std::string out = dir / "charts";
  ExitResult r = RunPlot({"-T", "svg", "-s", "-o", out, path});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);

  std::string net = ReadFileBytes(out + "/net.gp");
  std::vector<std::string> series = PlotSeries(net);
  CHECK(series.size() == 10);  // four interfaces and the others, received and sent
  for (const std::string& s : series) {
    CAPTURE(s);
    CHECK(s.find(" title '") != std::string::npos);
    CHECK(s.find("notitle") == std::string::npos);
  }
  CHECK(series[0].find("title 'veth9 received'") != std::string::npos);  // the busiest
  CHECK(series[8].find("'./net-others.dat' index 0") == 0);
  CHECK(series[8].find("title 'others received'") != std::string::npos);
  CHECK(net.find("'others: veth5, veth4, veth3, veth2, veth1, veth0, eth0'") !=
        std::string::npos);
  CHECK(net.find("'idle, not drawn: ifb0, lo'") == std::string::npos);  // no lo here
  CHECK(net.find("'idle, not drawn: ifb0'") != std::string::npos);
  CHECK(r.out.find(out + "/net-others.dat\n") != std::string::npos);
  CheckChartFile(out + "/net.svg", "svg");
  // The SVG shows the legend's entries and the note.
  std::string svg = ReadFileBytes(out + "/net.svg");
  CHECK(svg.find(">others sent<") != std::string::npos);
  CHECK(svg.find("idle, not drawn: ifb0") != std::string::npos);

  // loop0 idle: left out; vda alone then has no total line.
  std::string iops = ReadFileBytes(out + "/disk-iops.gp");
  CHECK(PlotSeries(iops).size() == 2);
  CHECK(iops.find("title 'vda read'") != std::string::npos);
  CHECK(iops.find("'total") == std::string::npos);
  CHECK(iops.find("'idle, not drawn: loop0'") != std::string::npos);
  // The data file is unchanged: loop0 and the total are in it.
  CHECK(ReadFileBytes(out + "/disk.dat").find("# device: loop0\n") != std::string::npos);

  ExitResult all = RunPlot({"-T", "svg", "-s", "--all-devices", "-o", dir / "all", path});
  REQUIRE(all.code == 0);
  std::string all_iops = ReadFileBytes(dir / "all/disk-iops.gp");
  CHECK(PlotSeries(all_iops).size() == 6);  // loop0, vda, total
  CHECK(all_iops.find("idle") == std::string::npos);
}

}  // namespace pm::test
