#include "daemon/collect/parse_cgroup.hh"

#include <algorithm>
#include <string>

#include "daemon/collect/scan.hh"

namespace pm {

void ParseFlatKeyed(std::string_view text, std::span<const std::string_view> keys,
                    std::span<uint64_t> out, std::string_view source,
                    std::span<bool> found) {
  std::fill(out.begin(), out.end(), 0);
  std::fill(found.begin(), found.end(), false);
  scan::Lines lines(text);
  for (std::string_view line; lines.Next(line);) {
    std::string_view key = scan::NextWord(line);
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) continue;
    uint64_t v = 0;
    if (scan::NextU64(line, v) != scan::Num::kOk)
      scan::ThrowAt(source, lines.number(),
                    "expected an unsigned integer after '" + std::string(key) + "'");
    const size_t i = static_cast<size_t>(it - keys.begin());
    out[i] = v;
    if (i < found.size()) found[i] = true;
  }
}

void ParseIoStat(std::string_view text, IoStatTotals& out, std::string_view source,
                 std::vector<IoStatRow>* rows) {
  struct Key { std::string_view name; uint64_t IoStatTotals::*to; };
  static constexpr Key kKeys[] = {{"rbytes", &IoStatTotals::rbytes},
                                  {"wbytes", &IoStatTotals::wbytes},
                                  {"rios", &IoStatTotals::rios},
                                  {"wios", &IoStatTotals::wios}};
  out = IoStatTotals{};
  if (rows) rows->clear();
  scan::Lines lines(text);
  for (std::string_view line; lines.Next(line);) {
    std::string_view device = scan::NextWord(line);  // MAJ:MIN
    if (device.empty()) continue;
    IoStatTotals row;
    for (std::string_view pair = scan::NextWord(line); !pair.empty();
         pair = scan::NextWord(line)) {
      size_t eq = pair.find('=');
      uint64_t v = 0;
      std::string_view number = eq == std::string_view::npos ? "" : pair.substr(eq + 1);
      if (eq == std::string_view::npos || scan::NextU64(number, v) != scan::Num::kOk ||
          !number.empty())
        scan::ThrowAt(source, lines.number(), "expected KEY=N, not '" + std::string(pair) + "'");
      for (const Key& k : kKeys)
        if (pair.substr(0, eq) == k.name) row.*k.to += v, out.*k.to += v;
    }
    if (rows) rows->push_back({device, row});
  }
}

uint64_t ParseSingleValue(std::string_view text, std::string_view source) {
  std::string_view rest = text.substr(0, text.find('\n'));
  uint64_t v = 0;
  if (scan::NextU64(rest, v) != scan::Num::kOk || !scan::TrimBlanks(rest).empty())
    scan::ThrowAt(source, 1, "expected one unsigned integer");
  return v;
}

}  // namespace pm
