#include "daemon/collect/parse_net_dev.hh"

#include <string>

#include "daemon/collect/scan.hh"

namespace pm {

namespace {
constexpr int kHeaderLines = 2;
}

void ParseNetDev(std::string_view text, NetDev& out, std::string_view source) {
  out.rows.clear();
  scan::Lines lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    if (lines.number() <= kHeaderLines || scan::TrimBlanks(line).empty()) continue;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      scan::ThrowAt(source, lines.number(), "expected 'interface: counters'");
    }
    NetRow& row = out.rows.emplace_back();
    row.name = scan::TrimBlanks(line.substr(0, colon));
    if (row.name.empty()) scan::ThrowAt(source, lines.number(), "missing interface name");
    std::string_view rest = line.substr(colon + 1);
    int n = scan::ReadNumbers(rest, row.counters);
    if (n < 0) scan::ThrowAt(source, lines.number(), "counters must be unsigned integers");
    if (n != static_cast<int>(row.counters.size())) {
      scan::ThrowAt(source, lines.number(), "interface line has " + std::to_string(n) +
                                                " counters; expected 16");
    }
  }
}

}  // namespace pm
