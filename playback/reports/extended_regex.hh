// A POSIX extended regular expression (regcomp with REG_EXTENDED), owned:
// the device filters' matcher. Not <regex>: libstdc++'s compiler recurses
// once per nesting level without bound and showed undefined behaviour on
// a fuzzed pattern.
//
// glibc's regcomp recurses too (a pattern nested 30,000 deep overflows the
// stack) and expands counted repetitions in full (`(a{1,255}){1,255}`
// takes seconds and 150 MB), so a pattern is bounded before it is
// compiled: at most kMaxPatternBytes long (which bounds its nesting), each
// count at most 255 (POSIX's RE_DUP_MAX floor), and at most kMaxPositions
// positions once its counts are expanded. A device name is short; these
// are far beyond any filter of device names.
#pragma once

#include <regex.h>

#include <cstddef>
#include <string>

namespace pm {

class ExtendedRegex {
 public:
  static constexpr size_t kMaxPatternBytes = 1024;
  static constexpr size_t kMaxCount = 255;
  static constexpr size_t kMaxPositions = 4096;

  // Throws std::invalid_argument, its what() one line saying why (regcomp's
  // reason, or which bound the pattern passes, or the POSIX spelling of a
  // Perl escape such as \d).
  explicit ExtendedRegex(const std::string& pattern);
  ~ExtendedRegex() { regfree(&re_); }
  ExtendedRegex(const ExtendedRegex&) = delete;
  ExtendedRegex& operator=(const ExtendedRegex&) = delete;

  // The pattern matches somewhere in `text` (unanchored, as grep -E).
  bool Search(const std::string& text) const;

 private:
  regex_t re_;
};

}  // namespace pm
