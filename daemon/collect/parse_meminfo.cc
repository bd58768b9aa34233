#include "daemon/collect/parse_meminfo.hh"

#include <string>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

// The kernel prints most recorded keys in kMemFields order, so searching
// from just after the previous match usually succeeds at once.
int FindKey(std::string_view key, size_t& hint) {
  for (size_t k = 0; k < kMemFields.size(); ++k) {
    size_t i = (hint + k) % kMemFields.size();
    if (kMemFields[i] == key) {
      hint = i + 1;
      return static_cast<int>(i);
    }
  }
  return -1;
}

}  // namespace

void ParseMeminfo(std::string_view text, MemInfo& out, std::string_view source) {
  out.values.fill(0);
  size_t hint = 0;
  scan::Lines lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    if (scan::TrimBlanks(line).empty()) continue;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      scan::ThrowAt(source, lines.number(), "expected 'Key: value'");
    }
    int index = FindKey(line.substr(0, colon), hint);
    if (index < 0) continue;
    std::string_view rest = line.substr(colon + 1);
    if (scan::NextU64(rest, out.values[static_cast<size_t>(index)]) != scan::Num::kOk) {
      scan::ThrowAt(source, lines.number(),
                    "expected an unsigned integer after '" +
                        std::string(line.substr(0, colon)) + ":'");
    }
  }
}

}  // namespace pm
