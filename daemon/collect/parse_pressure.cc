#include "daemon/collect/parse_pressure.hh"

#include <string>

#include "daemon/collect/scan.hh"

namespace pm {
namespace {

// The value of "total=N" among the line's words, or false.
bool FindTotal(std::string_view rest, uint64_t& total) {
  for (std::string_view word = scan::NextWord(rest); !word.empty();
       word = scan::NextWord(rest)) {
    if (!word.starts_with("total=")) continue;
    word.remove_prefix(6);
    return scan::NextU64(word, total) == scan::Num::kOk && word.empty();
  }
  return false;
}

}  // namespace

void ParsePressure(std::string_view text, PressureLines& out, std::string_view source) {
  out = PressureLines{};
  scan::Lines lines(text);
  for (std::string_view line; lines.Next(line);) {
    std::string_view kind = scan::NextWord(line);
    bool some = kind == "some";
    if (!some && kind != "full") continue;
    uint64_t total = 0;
    if (!FindTotal(line, total))
      scan::ThrowAt(source, lines.number(), "expected total=N on the '" + std::string(kind) + "' line");
    (some ? out.some_us : out.full_us) = total;
    (some ? out.has_some : out.has_full) = true;
  }
}

}  // namespace pm
