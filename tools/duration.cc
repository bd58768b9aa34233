#include "tools/duration.hh"

#include <limits>

#include "common/error.hh"

namespace pm {
namespace {

constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();

struct Unit {
  std::string_view name;
  uint64_t ns;
};
// Longest first, so "ms" is not read as "m" followed by garbage.
constexpr Unit kUnits[] = {{"ns", 1},
                           {"us", 1'000},
                           {"\xc2\xb5s", 1'000},  // U+00B5 micro sign
                           {"\xce\xbcs", 1'000},  // U+03BC Greek mu
                           {"ms", 1'000'000},
                           {"s", 1'000'000'000},
                           {"m", 60'000'000'000},
                           {"h", 3'600'000'000'000}};

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// One "12.345" off the front of `text`, as whole part and fraction (digits
// beyond 18 are dropped: below a nanosecond for every unit). False when
// there are no digits at all.
struct Number {
  uint64_t whole = 0;
  bool whole_overflow = false;
  uint64_t frac = 0;
  uint64_t frac_scale = 1;
};
bool TakeNumber(std::string_view& text, Number& n) {
  size_t i = 0, digits = 0;
  for (; i < text.size() && IsDigit(text[i]); ++i, ++digits) {
    uint64_t d = static_cast<uint64_t>(text[i] - '0');
    if (n.whole > (kMax - d) / 10) n.whole_overflow = true;
    else n.whole = n.whole * 10 + d;
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && IsDigit(text[i]); ++i, ++digits) {
      if (n.frac_scale >= 1'000'000'000'000'000'000ULL) continue;
      n.frac = n.frac * 10 + static_cast<uint64_t>(text[i] - '0');
      n.frac_scale *= 10;
    }
  }
  text.remove_prefix(i);
  return digits > 0;
}

std::optional<uint64_t> TakeUnit(std::string_view& text) {
  for (const Unit& unit : kUnits) {
    if (text.starts_with(unit.name)) {
      text.remove_prefix(unit.name.size());
      return unit.ns;
    }
  }
  return std::nullopt;
}

// n × unit in ns, or kTooLarge.
ParsedDuration Scale(const Number& n, uint64_t unit) {
  if (n.whole_overflow || (n.whole != 0 && n.whole > kMax / unit))
    return {0, DurationError::kTooLarge};
  uint64_t ns = n.whole * unit;
  // frac/frac_scale × unit, rounded to the nearest ns, without overflow.
  unsigned __int128 part = static_cast<unsigned __int128>(n.frac) * unit;
  uint64_t extra = static_cast<uint64_t>((part + n.frac_scale / 2) / n.frac_scale);
  if (ns > kMax - extra) return {0, DurationError::kTooLarge};
  return {static_cast<int64_t>(ns + extra), DurationError::kNone};
}

}  // namespace

ParsedDuration ParseDuration(std::string_view text) {
  const ParsedDuration bad = {0, DurationError::kNotADuration};
  if (text == "0") return {};
  Number first;
  std::string_view rest = text;
  if (!TakeNumber(rest, first)) return bad;
  if (rest.empty()) return Scale(first, 1'000'000'000);  // bare seconds
  uint64_t total = 0;
  for (rest = text; !rest.empty();) {
    Number n;
    if (!TakeNumber(rest, n)) return bad;
    std::optional<uint64_t> unit = TakeUnit(rest);
    if (!unit) return bad;
    ParsedDuration part = Scale(n, *unit);
    if (part.error != DurationError::kNone) return part;
    if (total > kMax - static_cast<uint64_t>(part.ns)) return {0, DurationError::kTooLarge};
    total += static_cast<uint64_t>(part.ns);
  }
  return {static_cast<int64_t>(total), DurationError::kNone};
}

std::optional<int64_t> ParseDurationNs(std::string_view text) {
  ParsedDuration d = ParseDuration(text);
  if (d.error != DurationError::kNone) return std::nullopt;
  return d.ns;
}

int64_t DurationArgument(std::string_view flag, std::string_view text) {
  ParsedDuration d = ParseDuration(text);
  std::string head = "--" + std::string(flag) + " '" + std::string(text) + "': ";
  if (d.error == DurationError::kTooLarge)
    throw UsageError(head + "too large (at most 2562047h, about 292 years)");
  if (d.error == DurationError::kNotADuration)
    throw UsageError(head +
                     "not a duration (write seconds like 0.5, or 500ms, 2s, 1h30m)");
  return d.ns;
}

}  // namespace pm
