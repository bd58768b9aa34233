// `plot --report`: one self-contained HTML page (every chart inline SVG,
// the header, summary, marks and phases), loaded in Debian's headless
// Chromium where it is installed; one multi-page PDF with -T pdf.
#include <doctest/doctest.h>

#include <sys/utsname.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "test/process/fake_proc.hh"
#include "test/process/load_helper.hh"
#include "test/process/plot_checks.hh"
#include "test/process/text_shapes.hh"

namespace pm::test {
namespace {

// A recording with a mark, a pause and hostile metadata.
std::string MarkedRecording(const TempDir& dir) {
  FakeProc fake(CountersAt(0));
  std::string path = dir / "marked.pgr";
  CommandSession s({"record", "--root", fake.root(), "-l", path, "-i", "3600", "--no-gzip",
                    "--meta", "q=<script>alert(1)</script> & 'x'"});
  s.ReadReadyLine();
  uint64_t k = 0;
  for (const char* command : {"sample", "mark load <a>", "sample", "pause", "resume", "sample",
                              "mark drain", "sample"}) {
    fake.Write(CountersAt(++k * 10));
    CAPTURE(command);
    REQUIRE(bool(s.Command(command).root()["ok"]));
  }
  s.CloseStop();
  REQUIRE(s.Wait().code == 0);
  return path;
}

// A recording whose interface lo is idle throughout, eth0 busy.
std::string IdleLoRecording(const TempDir& dir) {
  std::vector<FakeCounters> counters;
  for (uint64_t k = 0; k < 4; ++k) {
    counters.push_back(CountersAt(k * 10));
    counters.back().more_nets = {{"lo", {}}};
  }
  FakeProc fake(counters[0]);
  std::string path = dir / "idle-lo.pgr";
  RecordFake(fake, path, counters, {"--no-gzip"});
  return path;
}

// A recording whose disk vda is busy and queued throughout: far over any
// threshold, however long the commands between its samples take.
std::string BusyDiskRecording(const TempDir& dir) {
  std::vector<FakeCounters> counters;
  for (uint64_t k = 0; k < 4; ++k) {
    counters.push_back(CountersAt(k));
    counters.back().vda[9] += k * 1'000'000;    // io_ms
    counters.back().vda[10] += k * 10'000'000;  // weighted io_ms: aqu-sz
  }
  FakeProc fake(counters[0]);
  std::string path = dir / "busy-disk.pgr";
  RecordFake(fake, path, counters, {"--no-gzip"});
  return path;
}

// Recorded here at 100 ms while the load helper burns 1 s of one core's CPU.
std::string CpuBurnRecording(const TempDir& dir) {
  std::string path = dir / "burn.pgr";
  LoadHelper burn(dir / "unused");
  CommandSession s({"record", "-i", "0.1", "--no-disk", "--no-net", "-l", path});
  s.ReadReadyLine();
  for (int i = 0; i < 2; ++i) REQUIRE(burn.Do('c') == 'c');
  REQUIRE(bool(s.Command("stop").root()["ok"]));
  REQUIRE(s.Wait().code == 0);
  burn.End();
  return path;
}

// Page `page` of a PDF as Debian's pdftotext (poppler-utils) reads it; ""
// (and a message) without pdftotext.
std::string PdfPage(const std::string& pdf, int page) {
  const char* pdftotext = "/usr/bin/pdftotext";
  if (access(pdftotext, X_OK) != 0) {
    MESSAGE("skipped: no pdftotext (Debian package poppler-utils) to read the PDF");
    return "";
  }
  SpawnOptions read;
  read.program = pdftotext;
  read.args = {"-f", std::to_string(page), "-l", std::to_string(page), "-layout", pdf, "-"};
  ExitResult r = Child(std::move(read)).Wait(After(std::chrono::seconds(60)));
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  return r.out;
}

// Debian's chromium on PATH, or "".
std::string Chromium() {
  for (const char* dir : {"/usr/bin", "/usr/local/bin"}) {
    std::string path = std::string(dir) + "/chromium";
    if (access(path.c_str(), X_OK) == 0) return path;
  }
  return "";
}

// Page 1 of the PDF report, as Debian's pdftotext (poppler-utils) reads
// it: the header page, with the host, the duration, the metadata, the
// marks and the summary's main figures.
void CheckHeaderPage(const std::string& pdf) {
  const char* pdftotext = "/usr/bin/pdftotext";
  if (access(pdftotext, X_OK) != 0) {
    MESSAGE("skipped: no pdftotext (Debian package poppler-utils) to read the header page");
    return;
  }
  SpawnOptions read;
  read.program = pdftotext;
  read.args = {"-f", "1", "-l", "1", "-layout", pdf, "-"};
  ExitResult r = Child(std::move(read)).Wait(After(std::chrono::seconds(60)));
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  struct utsname uts;
  REQUIRE(uname(&uts) == 0);
  CAPTURE(r.out);
  CHECK(r.out.find(std::string("host: ") + uts.nodename) != std::string::npos);
  CHECK(r.out.find("Duration: ") != std::string::npos);
  CHECK(r.out.find("q: <script>alert(1)</script> & 'x'") != std::string::npos);
  CHECK(r.out.find("load <a>") != std::string::npos);
  CHECK(r.out.find("Non-idle usage") != std::string::npos);
  CHECK(r.out.find("* Statistics") == std::string::npos);  // not the whole summary
}

}  // namespace

TEST_CASE("plot --report: one self-contained HTML page, a chart per <svg>") {
  TempDir dir;
  std::string path = MarkedRecording(dir);
  ExitResult charts = RunPlot({"-T", "svg", "-o", dir / "svg", path});
  REQUIRE(charts.code == 0);
  size_t n = SplitLines(charts.out).size();
  CHECK(n >= 6);

  ExitResult r = RunPlot({"--report", "-o", dir / "report", path});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out == dir / "report/report.html\n");  // the page alone: no chart file beside it
  std::string html = ReadFileBytes(dir / "report/report.html");
  CHECK(html.starts_with("<!DOCTYPE html>\n"));
  CHECK(Occurrences(html, "<svg") == n);
  CHECK(Occurrences(html, "<?xml") == 0);
  CHECK(html.find("<title>Memory \u2014 host ") != std::string::npos);  // each chart's title
  // The header, the summary, the marks as phases and the pause.
  CHECK(html.find("<tr><th>host</th><td>") != std::string::npos);
  CHECK(html.find("<tr><th>kernel</th><td>") != std::string::npos);
  CHECK(html.find("<tr><th>interval</th><td>3600.000 s</td></tr>") != std::string::npos);
  CHECK(html.find("== performance summary of '" + path + "' ==") != std::string::npos);
  CHECK(html.find("* Statistics over ") != std::string::npos);  // summary --stats's block
  CHECK(html.find("cpu.all.usr") != std::string::npos);
  CHECK(html.find("<tr><td>load &lt;a&gt;</td>") != std::string::npos);
  CHECK(html.find("<tr><td>drain</td>") != std::string::npos);
  CHECK(html.find("<tr><td>paused</td>") != std::string::npos);
  // Self-contained and inert: nothing fetched, the metadata escaped.
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; 'x'") != std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("href=\"http") == std::string::npos);
  CHECK(html.find("href='http") == std::string::npos);

  std::string chromium = Chromium();
  if (chromium.empty()) {
    MESSAGE("skipped: no chromium (Debian package chromium) to load the report in");
    return;
  }
  SpawnOptions browser;
  browser.program = chromium;
  browser.args = {"--headless=new", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                  "--v=0", "--user-data-dir=" + (dir / "profile"), "--dump-dom",
                  "file://" + (dir / "report/report.html")};
  ExitResult loaded = Child(std::move(browser)).Wait(After(std::chrono::seconds(120)));
  CAPTURE(loaded.err);
  REQUIRE(loaded.code == 0);
  CHECK(loaded.err.find(":CONSOLE") == std::string::npos);  // no console message at all
  CHECK(Occurrences(loaded.out, "<svg") == n);                     // every chart in the DOM
  CHECK(Occurrences(loaded.out, "</svg>") == n);
}

TEST_CASE("plot --report: the charts before the summary, its all-zero rows left out and counted") {
  TempDir dir;
  std::string path = IdleLoRecording(dir);
  ExitResult r = RunPlot({"--report", "-o", dir / "report", path});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  std::string html = ReadFileBytes(dir / "report/report.html");
  // The summary is there, its busy interface and its statistics too.
  CHECK(html.find("* Average NETWORK usage: eth0") != std::string::npos);
  CHECK(html.find("net.eth0.rxkbyteps") != std::string::npos);
  // The idle lo: neither its block nor its statistics rows, but a note.
  CHECK(html.find("NETWORK usage: lo") == std::string::npos);
  CHECK(html.find("net.lo.") == std::string::npos);
  CHECK(html.find("cpu.all.steal") == std::string::npos);  // 0 in every fake sample
  size_t note = html.find("<p>Left out as 0 throughout (at the printed resolution): ");
  REQUIRE(note != std::string::npos);
  CHECK(html.find("interface lo", note) < html.find("</p>", note));
  // The first chart before the summary and its statistics table.
  size_t svg = html.find("<svg");
  REQUIRE(svg != std::string::npos);
  CHECK(svg < html.find("<h2>Summary</h2>"));
  CHECK(svg < html.find("* Statistics over "));
}

TEST_CASE("plot -T pdf --report: one PDF, a page per chart; PNG refused") {
  TempDir dir;
  std::string path = MarkedRecording(dir);
  ExitResult charts = RunPlot({"-o", dir / "pdf", path});
  REQUIRE(charts.code == 0);
  size_t n = SplitLines(charts.out).size();
  ExitResult r = RunPlot({"-T", "pdf", "--report", "-s", "-o", dir / "report", path});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.ends_with(dir / "report/report.gp\n" + dir / "report/report.pdf\n"));
  CheckChartFile(dir / "report/report.pdf", "pdf");
  std::string pdf = ReadFileBytes(dir / "report/report.pdf");
  // + the header and the USE page
  CHECK(pdf.find("/Count " + std::to_string(n + 2) + "\n") != std::string::npos);
  CheckHeaderPage(dir / "report/report.pdf");
  std::string use = PdfPage(dir / "report/report.pdf", 2);
  if (!use.empty()) {
    CHECK(use.find("* USE: utilisation, saturation, errors over ") != std::string::npos);
    CHECK(use.find("USE verdict per phase:") != std::string::npos);
    CHECK(use.find("  load <a>: ") != std::string::npos);
  }

  ExitResult png = RunPlot({"-T", "png", "--report", "-o", dir / "png", path});
  CHECK(png.code == 1);
  CHECK(png.err.find("--report: an HTML page (-T svg, or no -T) or a PDF (-T pdf)") !=
        std::string::npos);
}

TEST_CASE("plot --report: a CPU burn's USE table above the charts, the CPU chart first") {
  TempDir dir;
  std::string path = CpuBurnRecording(dir);
  ExitResult summary = Run({"summary", "--use", path});
  REQUIRE(summary.code == 0);
  size_t verdict = summary.out.find("\nUSE verdict: ");
  REQUIRE(verdict != std::string::npos);
  std::string verdict_line = summary.out.substr(verdict + 1, summary.out.find('\n', verdict + 1) - verdict);
  CAPTURE(summary.out);
  CHECK(verdict_line.starts_with("USE verdict: CPU"));  // CPU, or its busiest core

  ExitResult r = RunPlot({"--report", "-o", dir / "report", path});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  std::string html = ReadFileBytes(dir / "report/report.html");
  // summary --use's block as it prints it, escaped, above the first chart.
  size_t table = html.find("<h2>USE: utilisation, saturation, errors</h2>\n<pre>* USE: ");
  REQUIRE(table != std::string::npos);
  CHECK(html.find(verdict_line) > table);
  CHECK(html.find(verdict_line) < html.find("<svg"));
  size_t first_title = html.find("<title>", html.find("<svg"));
  CHECK(html.compare(first_title, 28, "<title>CPU usage, all cores ") == 0);

  r = RunPlot({"-T", "pdf", "--report", "-o", dir / "pdf", path});
  REQUIRE(r.code == 0);
  std::string use = PdfPage(dir / "pdf/report.pdf", 2);
  if (use.empty()) return;
  CHECK(use.find("USE verdict: CPU") != std::string::npos);
  CHECK(PdfPage(dir / "pdf/report.pdf", 3).find("CPU usage, all cores") != std::string::npos);
}

TEST_CASE("plot --report: a saturated disk's charts first, the others in their order") {
  TempDir dir;
  std::string path = BusyDiskRecording(dir);
  ExitResult r = RunPlot({"--report", "-o", dir / "report", path});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  std::string html = ReadFileBytes(dir / "report/report.html");
  CHECK(html.find("USE verdict: disk vda: saturated ") != std::string::npos);
  std::vector<std::string> titles;  // each chart's, in the page's order
  for (size_t svg = html.find("<svg"); svg != std::string::npos; svg = html.find("<svg", svg + 1)) {
    size_t at = html.find("<title>", svg) + 7;
    titles.push_back(html.substr(at, html.find(" \u2014", at) - at));
  }
  REQUIRE(titles.size() >= 6);
  CHECK(titles[0] == "Disk utilization (iostat's %util)");
  CHECK(titles[1] == "Disk await (iostat's r_await, w_await)");
  CHECK(titles[2] == "Disk IOPS");
  CHECK(titles[3] == "Disk transfer");
  CHECK(titles[4] == "CPU usage, all cores");
}

}  // namespace pm::test
