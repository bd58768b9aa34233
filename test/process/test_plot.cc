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
