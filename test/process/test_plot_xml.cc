// A recording's strings in SVG charts: a --meta value with a control byte
// (a legitimate `--meta 'k=a%07b'`), an escape sequence, U+FFFF (which XML
// 1.0 forbids even as a reference) and markup made every chart invalid
// XML. Each SVG, alone (-T svg) and inside the report (--report -T svg), is
// parsed by Python's xml.etree (Expat), as a browser or xmllint would.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "test/process/fake_proc.hh"
#include "test/process/plot_checks.hh"

namespace pm::test {
namespace {

// Every file (an SVG, or an HTML page whose <svg> elements are checked) as
// XML; exit 0 when all parse, else 1 with the error on stderr.
constexpr char kParse[] = R"(
import re, sys, xml.etree.ElementTree as ET
for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    parts = [data] if path.endswith('.svg') else re.findall(rb'<svg.*?</svg>', data, re.S)
    if not parts:
        sys.exit(path + ': no svg')
    for part in parts:
        try:
            ET.fromstring(part)
        except ET.ParseError as e:
            sys.exit('%s: %s' % (path, e))
    print(path, len(parts))
)";

ExitResult ParseXml(const std::vector<std::string>& files) {
  SpawnOptions options;
  options.program = "/usr/bin/python3";
  options.args = {"-c", kParse};
  options.args.insert(options.args.end(), files.begin(), files.end());
  return Child(std::move(options)).Wait();
}

// The charts plot listed on stdout.
std::vector<std::string> Listed(const std::string& out, const std::string& suffix) {
  std::vector<std::string> files;
  for (const std::string& line : SplitLines(out))
    if (line.ends_with(suffix)) files.push_back(line);
  return files;
}

}  // namespace

TEST_SUITE("plot") {
  TEST_CASE("plot -T svg and --report: a control byte or U+FFFF in a --meta value, valid XML") {
    FakeProc fake(CountersAt(0));
    TempDir dir;
    const std::string file = dir / "r.pgr";
    RecordFake(fake, file, {CountersAt(0), CountersAt(1), CountersAt(2)},
               {"--meta", "k=a%07b", "--meta", "esc=%1B]0;t%07", "--meta", "nc=x%EF%BF%BFy",
                "--meta", "tag=<b>&amp;"});
    ExitResult charts = RunPlot({"-T", "svg", "-o", dir / "charts", file});
    CAPTURE(charts.err);
    REQUIRE(charts.code == 0);
    std::vector<std::string> svgs = Listed(charts.out, ".svg");
    REQUIRE(svgs.size() >= 4);
    ExitResult report = RunPlot({"-T", "svg", "--report", "-o", dir / "report", file});
    CAPTURE(report.err);
    REQUIRE(report.code == 0);
    std::vector<std::string> pages = Listed(report.out, ".html");
    REQUIRE(pages.size() == 1);
    std::vector<std::string> all = svgs;
    all.push_back(pages[0]);
    ExitResult parsed = ParseXml(all);
    CAPTURE(parsed.out);
    CAPTURE(parsed.err);
    CHECK(parsed.code == 0);
    // The title still shows the value, its forbidden characters as '?'.
    std::string svg = ReadFileBytes(svgs[0]);
    CHECK(svg.find("k=a?b") != std::string::npos);
    CHECK(svg.find("tag=&lt;b&gt;&amp;amp;") != std::string::npos);
    for (const std::string& path : all) {
      CAPTURE(path);
      std::string text = ReadFileBytes(path);
      CHECK(text.find('\x07') == std::string::npos);
      CHECK(text.find('\x1b') == std::string::npos);
      CHECK(text.find("\xef\xbf\xbf") == std::string::npos);
    }
  }
}

}  // namespace pm::test
