#include "daemon/collect/parse_meminfo.hh"

#include <string>

#include "daemon/collect/scan.hh"
#include "proto/columns/mem.hh"

namespace pm {
namespace {

int FindKey(std::string_view key) {
  for (size_t i = 0; i < kMemFields.size(); ++i)
    if (kMemFields[i] == key) return static_cast<int>(i);
  return -1;
}

// The field of line `n` (0-based), from the previous parse when that line
// held the same key.
int FieldOfLine(MemInfo& info, size_t n, std::string_view key) {
  if (n < info.line_keys.size() && info.line_keys[n] == key) return info.line_fields[n];
  if (n >= info.line_keys.size()) {
    info.line_keys.resize(n + 1);
    info.line_fields.resize(n + 1);
  }
  info.line_keys[n].assign(key);
  return info.line_fields[n] = FindKey(key);
}

}  // namespace

void ParseMeminfo(std::string_view text, MemInfo& out, std::string_view source) {
  out.values.fill(0);
  out.present = false;
  size_t n = 0;
  scan::Lines lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    if (scan::TrimBlanks(line).empty()) continue;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      scan::ThrowAt(source, lines.number(), "expected 'Key: value'");
    }
    int index = FieldOfLine(out, n++, line.substr(0, colon));
    if (index < 0) continue;
    std::string_view rest = line.substr(colon + 1);
    if (scan::NextU64(rest, out.values[static_cast<size_t>(index)]) != scan::Num::kOk) {
      scan::ThrowAt(source, lines.number(),
                    "expected an unsigned integer after '" +
                        std::string(line.substr(0, colon)) + ":'");
    }
    out.present = true;
  }
}

}  // namespace pm
