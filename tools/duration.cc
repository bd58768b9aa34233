#include "tools/duration.hh"

#include <charconv>
#include <cmath>

namespace pm {
namespace {

struct Unit {
  std::string_view suffix;
  double ns;
};
// Longest suffixes first so "ms" is not read as "m" + garbage.
constexpr Unit kUnits[] = {{"ns", 1}, {"us", 1e3}, {"\xc2\xb5s", 1e3},
                           {"ms", 1e6}, {"s", 1e9}, {"m", 60e9}, {"h", 3600e9}};

}  // namespace

std::optional<int64_t> ParseDurationNs(std::string_view text) {
  double scale = 1e9;  // bare numbers are seconds
  for (const Unit& unit : kUnits) {
    if (text.size() > unit.suffix.size() && text.ends_with(unit.suffix)) {
      scale = unit.ns;
      text.remove_suffix(unit.suffix.size());
      break;
    }
  }
  double value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value,
                                   std::chars_format::fixed);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    return std::nullopt;
  double ns = value * scale;
  if (!std::isfinite(ns) || ns < 0 || ns > 9.2e18) return std::nullopt;
  return static_cast<int64_t>(std::llround(ns));
}

}  // namespace pm
