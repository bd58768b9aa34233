#include "test/process/text_shapes.hh"

#include <doctest/doctest.h>

namespace pm::test {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The digits at the start of `s`, removed from it.
size_t TakeDigits(std::string_view& s) {
  size_t n = 0;
  while (n < s.size() && IsDigit(s[n])) ++n;
  s.remove_prefix(n);
  return n;
}

// `s` starts with `shape`, '#' standing for one digit; consumed if so.
bool TakeShape(std::string_view& s, std::string_view shape) {
  if (s.size() < shape.size()) return false;
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] == '#' ? !IsDigit(s[i]) : s[i] != shape[i]) return false;
  s.remove_prefix(shape.size());
  return true;
}

}  // namespace

bool IsRfc3339Utc(std::string_view s) {
  if (!TakeShape(s, "####-##-##T##:##:##")) return false;
  if (s.starts_with('.')) {
    s.remove_prefix(1);
    if (TakeDigits(s) == 0) return false;
  }
  return s == "Z";
}

bool IsFixedPoint(std::string_view s, size_t decimals, std::string_view suffix) {
  if (TakeDigits(s) == 0 || !s.starts_with('.')) return false;
  s.remove_prefix(1);
  return TakeDigits(s) == decimals && s == suffix;
}

size_t Occurrences(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("the text shapes reject near misses") {
  CHECK(IsRfc3339Utc("2026-11-29T08:07:30.123456Z"));
  CHECK(IsRfc3339Utc("2026-11-29T08:07:30Z"));
  for (const char* s : {"2026-11-29T08:07:30.Z", "2026-11-29T08:07:30.1", "2026-11-29 08:07:30Z",
                        "226-11-29T08:07:30Z", "2026-11-29T08:07:30.1Zx", ""})
    CHECK_FALSE(IsRfc3339Utc(s));
  CHECK(IsFixedPoint("12.345 sec", 3, " sec"));
  for (const char* s : {"12.34 sec", "12.3456 sec", ".345 sec", "12.345", "12,345 sec"})
    CHECK_FALSE(IsFixedPoint(s, 3, " sec"));
}

}  // namespace pm::test
