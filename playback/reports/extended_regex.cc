#include "playback/reports/extended_regex.hh"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace pm {
namespace {

[[noreturn]] void Refuse(const std::string& why) { throw std::invalid_argument(why); }

// Past the bracket expression that starts at `p[i]` ('['): its ']' may
// come first ("[]a]", "[^]a]"), and "[:", "[." and "[=" open classes
// that end at ":]", ".]", "=]". An unclosed one ends the pattern:
// regcomp then names the error.
size_t SkipBracket(std::string_view p, size_t i) {
  size_t j = i + 1;
  if (j < p.size() && p[j] == '^') ++j;
  if (j < p.size() && p[j] == ']') ++j;
  for (; j < p.size(); ++j) {
    if (p[j] == ']') return j + 1;
    if (p[j] == '[' && j + 1 < p.size() && (p[j + 1] == ':' || p[j + 1] == '.' || p[j + 1] == '=')) {
      const char close[] = {p[j + 1], ']', '\0'};
      size_t end = p.find(close, j + 2);
      if (end == std::string_view::npos) return p.size();
      j = end + 1;
    }
  }
  return p.size();
}

// POSIX leaves "\" before a letter or digit undefined; glibc reads most
// as the letter itself (so "\d" would match "d"), a digit as a
// backreference.
void CheckEscape(char c) {
  if (!std::isalnum(static_cast<unsigned char>(c))) return;
  if (c == 'd') Refuse("'\\d' is Perl's, not POSIX's: write [0-9]");
  if (c == 'D') Refuse("'\\D' is Perl's, not POSIX's: write [^0-9]");
  if (c == 's') Refuse("'\\s' is Perl's, not POSIX's: write [[:space:]]");
  if (c == 'w') Refuse("'\\w' is Perl's, not POSIX's: write [[:alnum:]_]");
  Refuse(std::string("'\\") + c + "' is no escape of extended regular expressions: " +
         "a backslash quotes only a symbol, as in \\. or \\(");
}

// The count of an interval "{m}", "{m,}", "{m,n}" or glibc's "{,n}" at
// `p[i]` ('{'), its end in `end`: the most copies it makes ("{m,}": m
// and a star). 0 when it is no interval (regcomp decides what it is then).
size_t IntervalCount(std::string_view p, size_t i, size_t& end) {
  size_t j = i + 1;
  auto number = [&](size_t& n) {
    size_t from = j;
    for (n = 0; j < p.size() && p[j] >= '0' && p[j] <= '9'; ++j)
      n = std::min(n * 10 + static_cast<size_t>(p[j] - '0'), ExtendedRegex::kMaxCount + 1);
    if (n > ExtendedRegex::kMaxCount)
      Refuse("a count above " + std::to_string(ExtendedRegex::kMaxCount) + " in {}");
    return j > from;
  };
  size_t low = 0, high = 0;
  bool has_low = number(low);
  high = low;
  if (j < p.size() && p[j] == ',') {
    ++j;
    if (!number(high)) high = low + 1;
  } else if (!has_low) {
    return 0;
  }
  if (j >= p.size() || p[j] != '}') return 0;
  end = j + 1;
  return std::max<size_t>(high, 1);
}

// Walks the pattern as regcomp will read it, adding up its positions
// with each counted repetition expanded, and refuses it past the bounds.
// The groups being read are a vector, not a recursion.
void CheckBounds(std::string_view p) {
  if (p.size() > ExtendedRegex::kMaxPatternBytes)
    Refuse("longer than " + std::to_string(ExtendedRegex::kMaxPatternBytes) + " bytes");
  if (p.find('\0') != std::string_view::npos) Refuse("a NUL byte in it");
  std::vector<size_t> outer;  // the positions of each enclosing group so far
  size_t positions = 0;       // of the group being read
  size_t last = 0;            // of the last atom read, which a count repeats
  auto too_many = [] {
    Refuse("more than " + std::to_string(ExtendedRegex::kMaxPositions) +
           " positions with its counts expanded: use smaller {m,n} counts");
  };
  for (size_t i = 0; i < p.size();) {
    char c = p[i];
    size_t end = i + 1, atom = 1;
    if (c == '\\') {
      if (i + 1 < p.size()) CheckEscape(p[i + 1]);
      end = i + 2;
    } else if (c == '[') {
      end = SkipBracket(p, i);
    } else if (c == '(') {
      outer.push_back(positions);
      positions = 0;
      atom = 0;
    } else if (c == ')' && !outer.empty()) {
      atom = positions + 1;
      positions = outer.back();
      outer.pop_back();
    } else if (c == '{') {
      if (size_t count = IntervalCount(p, i, end)) {
        if (last > ExtendedRegex::kMaxPositions / count) too_many();
        positions += last * (count - 1);
        last *= count;
        atom = 0;
      }
    } else if (c == '*' || c == '+' || c == '?' || c == '|' || c == '^' || c == '$') {
      atom = 0;
    }
    if (atom != 0) last = atom;
    positions += atom;
    if (positions > ExtendedRegex::kMaxPositions) too_many();
    i = end;
  }
}

}  // namespace

ExtendedRegex::ExtendedRegex(const std::string& pattern) {
  CheckBounds(pattern);
  if (int rc = regcomp(&re_, pattern.c_str(), REG_EXTENDED | REG_NOSUB); rc != 0) {
    char why[256];
    regerror(rc, &re_, why, sizeof why);
    Refuse(why);  // a failed regcomp holds nothing to free
  }
}

bool ExtendedRegex::Search(const std::string& text) const {
  return regexec(&re_, text.c_str(), 0, nullptr, 0) == 0;
}

}  // namespace pm
