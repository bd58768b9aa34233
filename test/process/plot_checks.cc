#include "test/process/plot_checks.hh"

#include <doctest/doctest.h>

#include <filesystem>

#include "test/process/recording.hh"

namespace pm::test {

ExitResult RunPlot(std::vector<std::string> args, std::vector<std::string> env,
                   std::string cwd) {
  SpawnOptions options;
  options.args = std::move(args);
  options.args.insert(options.args.begin(), "plot");
  options.env = std::move(env);
  options.cwd = std::move(cwd);
  return Child(std::move(options)).Wait(After(std::chrono::seconds(120)));
}

void CheckChartFile(const std::string& path, const std::string& type) {
  CAPTURE(path);
  REQUIRE(std::filesystem::exists(path));
  std::string bytes = ReadFileBytes(path);
  CHECK(bytes.size() > 2000);
  if (type == "pdf") {
    CHECK(bytes.compare(0, 5, "%PDF-") == 0);
    CHECK(bytes.find("%%EOF") != std::string::npos);
  } else if (type == "svg") {
    CHECK(bytes.find("<svg") != std::string::npos);
    CHECK(bytes.find("</svg>") != std::string::npos);
    CHECK(bytes.find("<path") != std::string::npos);
  } else {
    CHECK(bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  }
}

PngImage CheckDrawnPng(const std::string& path) {
  CheckChartFile(path, "png");
  PngImage img = DecodePng(ReadFileBytes(path));
  CHECK(img.width == 1280);
  CHECK(img.height == 800);
  CHECK(img.colours.size() > 8);
  return img;
}

}  // namespace pm::test
