// `perfmonger diff --report`: one self-contained HTML page, the ranked
// changes on top, then a chart per family of the plot report (its charts
// but the per-core strips), each with both runs' lines titled by their
// files; loaded in Debian's headless Chromium where it is installed. An
// output that cannot be written is one line and exit 1, before any work.
#include <doctest/doctest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "test/process/fake_proc.hh"
#include "test/process/plot_checks.hh"
#include "test/process/text_shapes.hh"

namespace pm::test {
namespace {

// A recording of a fake machine with marks "load" and "drain", its
// counters moving `scale` times as fast as CountersAt's.
std::string MarkedRecording(const TempDir& dir, const std::string& name, uint64_t scale) {
  FakeProc fake(CountersAt(0));
  std::string path = dir / name;
  CommandSession s({"record", "--root", fake.root(), "-l", path, "-i", "3600", "--no-gzip"});
  s.ReadReadyLine();
  uint64_t k = 0;
  for (const char* command :
       {"sample", "mark load", "sample", "sample", "mark drain", "sample", "sample"}) {
    fake.Write(CountersAt(++k * scale));
    CAPTURE(command);
    REQUIRE(bool(s.Command(command).root()["ok"]));
  }
  s.CloseStop();
  REQUIRE(s.Wait().code == 0);
  return path;
}

bool Installed(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

ExitResult RunDiff(std::vector<std::string> args, std::vector<std::string> env = {}) {
  SpawnOptions options;
  options.args = std::move(args);
  options.env = std::move(env);
  options.args.insert(options.args.begin(), "diff");
  return Child(std::move(options)).Wait(After(std::chrono::seconds(120)));
}

// The page's charts: each <svg>...</svg>.
std::vector<std::string> Charts(const std::string& html) {
  std::vector<std::string> out;
  for (size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1))
    out.push_back(html.substr(at, html.find("</svg>", at) - at));
  return out;
}

// Headless Chromium loads the page: no console message, every chart in
// its DOM.
void CheckInChromium(const TempDir& dir, const std::string& page, size_t charts) {
  if (!Installed("/usr/bin/chromium")) {
    MESSAGE("skipped: no chromium (Debian package chromium) to load the report in");
    return;
  }
  SpawnOptions browser;
  browser.program = "/usr/bin/chromium";
  browser.args = {"--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                  "--v=0", "--user-data-dir=" + (dir / "profile"), "--dump-dom",
                  "file://" + page};
  ExitResult loaded = Child(std::move(browser)).Wait(After(std::chrono::seconds(120)));
  CAPTURE(loaded.err);
  REQUIRE(loaded.code == 0);
  CHECK(loaded.err.find(":CONSOLE") == std::string::npos);
  CHECK(loaded.err.find("Uncaught") == std::string::npos);
  CHECK(Occurrences(loaded.out, "<svg") == charts);
  CHECK(Occurrences(loaded.out, "</svg>") == charts);
}

}  // namespace

TEST_CASE("diff --report: the changes, then a chart per family with both runs titled") {
  if (!Installed("/usr/bin/gnuplot")) {
    MESSAGE("skipped: no gnuplot (Debian package gnuplot-nox) to draw the charts");
    return;
  }
  TempDir dir;
  const std::string a = MarkedRecording(dir, "a.pgr", 1), b = MarkedRecording(dir, "b.pgr", 3);
  // The plot report's charts of A: the families, one file each.
  ExitResult plot = RunPlot({"-T", "svg", "-o", dir / "svg", a});
  REQUIRE(plot.code == 0);
  std::vector<std::string> families;
  for (const std::string& file : SplitLines(plot.out))
    if (file.find("/allcpu.svg") == std::string::npos) families.push_back(file);
  REQUIRE(families.size() >= 5);

  ExitResult r = RunDiff({"--report", dir / "diff.html", a, b});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("phase") != std::string::npos);  // the text table, as without --report
  const std::string html = ReadFileBytes(dir / "diff.html");
  CHECK(html.starts_with("<!DOCTYPE html>\n"));
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  // The changes on top, as the text output gives them.
  const size_t changes = html.find("<h2>Changes</h2>\n<pre>");
  REQUIRE(changes != std::string::npos);
  CHECK(changes < html.find("<svg"));
  CHECK(html.find(SplitLines(r.out).front()) != std::string::npos);
  const std::vector<std::string> charts = Charts(html);
  CHECK(charts.size() == families.size());
  for (const std::string& svg : charts) {
    CAPTURE(svg.substr(0, 400));
    CHECK(svg.find("A: a.pgr") != std::string::npos);  // the legend: both runs
    CHECK(svg.find("B: b.pgr") != std::string::npos);
    CHECK(svg.find("'#1f77b4'") == std::string::npos);  // drawn, not the script
  }
  // The phases aligned: each mark on the axis.
  CHECK(Occurrences(charts.front(), ">load<") >= 1);
  CHECK(Occurrences(charts.front(), ">drain<") >= 1);
  CheckInChromium(dir, dir / "diff.html", charts.size());

  // By time: the same charts, A's marks on the axis.
  ExitResult by_time = RunDiff({"--align", "time", "--report", dir / "time.html", a, b});
  CAPTURE(by_time.err);
  REQUIRE(by_time.code == 0);
  const std::vector<std::string> timed = Charts(ReadFileBytes(dir / "time.html"));
  CHECK(timed.size() == families.size());
  CHECK(Occurrences(timed.front(), ">load<") >= 1);
}

TEST_CASE("diff --report that cannot be written or drawn: one line, exit 1") {
  TempDir dir;
  const std::string a = dir / "a.pgr";
  REQUIRE(Run({"stat", "-i", "10ms", "-l", a, "--", "true"}).code == 0);
  for (const std::string& report : {dir / "missing/diff.html", std::string("/proc/diff.html"),
                                    dir.path() + "/"}) {
    CAPTURE(report);
    ExitResult r = RunDiff({"--report", report, a, a});
    CAPTURE(r.err);
    CHECK(r.code == 1);
    CHECK(r.err.rfind("perfmonger diff: error: --report: ", 0) == 0);
    CHECK(r.err.find('\n') == r.err.size() - 1);
    CHECK(r.out.empty());
  }
  // No gnuplot: one line naming the package, exit 1, nothing else.
  ExitResult no_gnuplot = RunDiff({"--report", dir / "diff.html", a, a}, {"PATH=" + dir.path()});
  CHECK(no_gnuplot.code == 1);
  CHECK(no_gnuplot.err == "perfmonger diff: error: --report: gnuplot is not on PATH: install "
                          "Debian's gnuplot-nox (apt-get install gnuplot-nox)\n");
  CHECK(no_gnuplot.out.empty());  // before any work
  CHECK(access((dir / "diff.html").c_str(), F_OK) != 0);
  // Standard input cannot be read a second time for the charts.
  ExitResult piped = RunDiff({"--report", dir / "diff.html", "-", a});
  CHECK(piped.code == 1);
  CHECK(piped.err == "perfmonger diff: error: --report reads the runs a second time: "
                     "name files, not standard input\n");
}

}  // namespace pm::test
