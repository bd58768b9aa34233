#include "daemon/collect/scan.hh"

#include <charconv>
#include <cstring>
#include <string>

#include "common/error.hh"

namespace pm::scan {

bool Lines::Next(std::string_view& line) noexcept {
  if (rest_.empty()) return false;
  const void* nl = std::memchr(rest_.data(), '\n', rest_.size());
  size_t len = nl ? static_cast<size_t>(static_cast<const char*>(nl) - rest_.data())
                  : rest_.size();
  line = rest_.substr(0, len);
  rest_.remove_prefix(nl ? len + 1 : len);
  ++number_;
  return true;
}

void SkipBlanks(std::string_view& s) noexcept {
  size_t i = 0;
  while (i < s.size() && IsBlank(s[i])) ++i;
  s.remove_prefix(i);
}

std::string_view TrimBlanks(std::string_view s) noexcept {
  SkipBlanks(s);
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}

std::string_view NextWord(std::string_view& s) noexcept {
  SkipBlanks(s);
  size_t i = 0;
  while (i < s.size() && !IsBlank(s[i])) ++i;
  std::string_view word = s.substr(0, i);
  s.remove_prefix(i);
  return word;
}

Num NextU64(std::string_view& s, uint64_t& value) noexcept {
  SkipBlanks(s);
  if (s.empty()) return Num::kEnd;
  const char* end = s.data() + s.size();
  uint64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), end, v);
  // "12abc" is a word, not a number followed by junk.
  if (ec != std::errc() || (ptr != end && !IsBlank(*ptr))) return Num::kBad;
  s.remove_prefix(static_cast<size_t>(ptr - s.data()));
  value = v;
  return Num::kOk;
}

int ReadNumbers(std::string_view& s, std::span<uint64_t> out) noexcept {
  int n = 0;
  for (uint64_t& v : out) {
    Num r = NextU64(s, v);
    if (r == Num::kEnd) break;
    if (r == Num::kBad) return -1;
    ++n;
  }
  return n;
}

void ThrowAt(std::string_view source, int line, std::string_view what) {
  std::string msg(source);
  msg += ':';
  msg += std::to_string(line);
  msg += ": ";
  msg += what;
  throw FormatError(msg);
}

}  // namespace pm::scan
