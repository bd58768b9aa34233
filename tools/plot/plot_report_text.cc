#include "tools/plot/plot_report_text.hh"

#include <cstdlib>
#include <sstream>
#include <string_view>

namespace pm {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// "    RX throughput: 0.00 KB/s" -> "RX throughput".
std::string Label(const std::string& line) {
  size_t colon = line.find(':');
  size_t begin = line.find_first_not_of(' ');
  if (colon == std::string::npos || begin >= colon) return {};
  return line.substr(begin, colon - begin);
}

// The text is a number (a whole token) equal to 0.
bool Zero(const std::string& token) {
  if (token.empty()) return false;
  char* end = nullptr;
  double v = std::strtod(token.c_str(), &end);
  return *end == '\0' && v == 0;
}

// "  utilization: 0.00 %": the first token after the colon.
bool ZeroFigure(const std::string& line) {
  size_t colon = line.find(':');
  if (colon == std::string::npos) return false;
  std::istringstream in(line.substr(colon + 1));
  std::string token;
  in >> token;
  return Zero(token);
}

// "  cpu.all.nice  %  0.00  0.00  0.00  0.205 ...": series, unit, mean, min, max.
bool ZeroStatsRow(const std::string& line) {
  std::istringstream in(line);
  std::string series, unit, mean, min, max;
  in >> series >> unit >> mean >> min >> max;
  return Zero(min) && Zero(max);
}

constexpr std::string_view kDevice = "* Average DEVICE usage: ";
constexpr std::string_view kNetwork = "* Average NETWORK usage: ";

bool DeviceOrInterface(const std::string& line) {
  return line.starts_with(kDevice) || line.starts_with(kNetwork);
}

// "disk vda", "interface lo", "disks' total", "interfaces' total".
std::string BlockName(const std::string& line) {
  bool disk = line.starts_with(kDevice);
  std::string name = line.substr((disk ? kDevice : kNetwork).size());
  if (name == "total") return disk ? "disks' total" : "interfaces' total";
  return (disk ? "disk " : "interface ") + name;
}

bool MainSection(const std::string& line) {
  return line.starts_with("* Average CPU usage") || line.starts_with("* Memory usage") ||
         line == std::string(kDevice) + "total" || line == std::string(kNetwork) + "total";
}

bool MainLabel(const std::string& label) {
  for (std::string_view l : {"Non-idle usage", "%usr", "%sys", "%iowait", "read IOPS",
                             "write IOPS", "read throughput", "write throughput", "utilization",
                             "RX throughput", "TX throughput", "mem used", "mem available"})
    if (label.ends_with(l)) return true;
  return false;
}

}  // namespace

std::vector<std::string> SummaryMainFigures(const std::string& summary) {
  std::vector<std::string> out;
  bool main = false;
  for (const std::string& line : Lines(summary)) {
    if (line.starts_with("* ")) {
      main = MainSection(line);
      if (main) out.push_back(line);
    } else if (main && MainLabel(Label(line))) {
      out.push_back(line);
    }
  }
  return out;
}

ZeroRowsLeftOut LeaveOutZeroRows(const std::string& summary) {
  ZeroRowsLeftOut out;
  std::vector<std::string> lines = Lines(summary);
  bool stats = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.starts_with("* ")) stats = line.starts_with("* Statistics");
    if (DeviceOrInterface(line)) {
      size_t end = i + 1;
      bool zero = true;
      for (; end < lines.size() && !lines[end].empty(); ++end)
        zero = zero && ZeroFigure(lines[end]);
      if (zero) {
        out.blocks.push_back(BlockName(line));
        i = end;  // the blank line after the block too
        continue;
      }
    }
    if (stats && !line.starts_with("* ") && !line.starts_with("  series") && ZeroStatsRow(line)) {
      ++out.stats_rows;
      continue;
    }
    out.text += line + "\n";
  }
  return out;
}

}  // namespace pm
