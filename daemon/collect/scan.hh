// Hand-written scanning of /proc text, shared by the parsers. Everything
// works on views into the caller's buffer: no allocation, no streams, and
// numbers go through std::from_chars (these run every tick).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace pm::scan {

// Splits text into lines and counts them, so errors can name the line.
class Lines {
 public:
  explicit Lines(std::string_view text) noexcept : rest_(text) {}

  // The next line without its '\n'; false once the text is used up.
  bool Next(std::string_view& line) noexcept;
  // 1-based number of the line last returned by Next().
  int number() const noexcept { return number_; }

 private:
  std::string_view rest_;
  int number_ = 0;
};

inline bool IsBlank(char c) noexcept { return c == ' ' || c == '\t'; }
inline bool IsDigit(char c) noexcept { return c >= '0' && c <= '9'; }

void SkipBlanks(std::string_view& s) noexcept;
std::string_view TrimBlanks(std::string_view s) noexcept;
// The next blank-separated word (empty at the end of s), consumed from s.
std::string_view NextWord(std::string_view& s) noexcept;

enum class Num { kOk, kEnd, kBad };

// One blank-separated unsigned decimal. kEnd: only blanks were left.
// kBad: the next word is not a number (it is left in s, so a caller can
// treat it as the start of free text). `value` is written only on kOk.
Num NextU64(std::string_view& s, uint64_t& value) noexcept;

// Reads up to out.size() numbers; later words are left in s. Returns how
// many were read, or -1 if a word that is not a number came first.
int ReadNumbers(std::string_view& s, std::span<uint64_t> out) noexcept;

// Throws FormatError "source:line: what".
[[noreturn]] void ThrowAt(std::string_view source, int line, std::string_view what);

}  // namespace pm::scan
