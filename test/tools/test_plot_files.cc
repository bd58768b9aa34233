// ChartComplete: a chart gnuplot left whole, told from one a full disk cut
// short (gnuplot exits 0 either way), at every length.
#include <doctest/doctest.h>

#include <string>

#include "tools/plot/plot_files.hh"

namespace pm {
namespace {

const std::string kPng = std::string("\x89PNG\r\n\x1a\n", 8) + std::string(40, 'x') +
                         std::string("\0\0\0\0IEND\xae\x42\x60\x82", 12);
const std::string kSvg = "<?xml version=\"1.0\"?>\n<svg width=\"10\">\n<g/>\n</svg>\n\n";
const std::string kPdf = "%PDF-1.5\n%\xb5\xed\n1 0 obj\nendobj\ntrailer\n%%EOF\r\n";

}  // namespace

TEST_SUITE("plot files") {
  TEST_CASE("a complete chart of each type; cut at any length, or empty, incomplete") {
    const std::pair<ChartType, std::string> charts[] = {
        {ChartType::kPng, kPng}, {ChartType::kSvg, kSvg}, {ChartType::kPdf, kPdf}};
    for (const auto& chart : charts) {
      const ChartType type = chart.first;
      const std::string& bytes = chart.second;
      CAPTURE(ChartExtension(type));
      CHECK(ChartComplete(bytes, type));
      size_t whole = bytes.find_last_not_of("\r\n") + 1;  // trailing line ends may go
      for (size_t cut = 0; cut < whole; ++cut) {
        CAPTURE(cut);
        CHECK(!ChartComplete(bytes.substr(0, cut), type));
      }
    }
    CHECK(!ChartComplete(kSvg, ChartType::kPdf));
    CHECK(!ChartComplete(kPdf, ChartType::kPng));
  }
}

}  // namespace pm
