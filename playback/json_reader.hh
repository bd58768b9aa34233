// A strict pull parser for one JSON text (one .pgr line): no DOM, no
// allocation beyond one reusable scratch string, integers parsed in place.
// The caller walks the structure it expects and skips what it does not:
//
//   r.Reset(line);
//   r.BeginObject();
//   for (std::string_view key; r.NextKey(key);)
//     if (key == "t") t = r.ReadInt64(); else r.SkipValue();
//   r.ExpectEnd();
//
// Strict RFC 8259: no comments, no trailing commas, no leading zeros, no
// raw control bytes in strings. Decisions:
// - strings are UTF-8: invalid UTF-8 (overlong, surrogate, > U+10FFFF, cut
//   sequences) is an error, not U+FFFD — our writers escape bad bytes, so
//   a raw one means garbage; \uXXXX escapes become UTF-8, surrogate pairs
//   combined, a lone surrogate is an error; \u0000 is kept as a NUL byte;
// - integers must fit the type asked for (no silent wrap), and an integer
//   read refuses a fraction or exponent;
// - nesting deeper than kMaxDepth is an error (bounds SkipValue's recursion).
//
// The narrow interface (typed reads, no token objects) is what a simdjson
// on-demand backend would offer too, should it become linkable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.hh"

namespace pm {

// "REASON at byte N", N the offset in the text given to the reader.
class JsonError : public FormatError {
 public:
  JsonError(std::string_view reason, size_t offset);
  const std::string& reason() const { return reason_; }
  size_t offset() const { return offset_; }

 private:
  std::string reason_;
  size_t offset_;
};

class JsonReader {
 public:
  enum class Type { kObject, kArray, kString, kNumber, kBool, kNull };
  static constexpr int kMaxDepth = 64;

  JsonReader() = default;
  explicit JsonReader(std::string_view text) { Reset(text); }

  // Starts on a new text; the scratch buffer's storage is kept.
  void Reset(std::string_view text) {
    text_ = text;
    pos_ = 0;
    depth_ = 0;
    first_bits_ = 0;
  }

  // The type of the next value (not consumed); throws if there is none.
  Type Peek();
  // Consumes `null` when it comes next.
  bool TryNull();

  void BeginObject() { Begin('{'); }
  // The next member's key, its ':' consumed; false at '}' (consumed). The
  // key is valid until the next string is read.
  bool NextKey(std::string_view& key);
  void BeginArray() { Begin('['); }
  // true: an element follows (the caller reads it); false at ']' (consumed).
  bool NextElement() {
    SkipSpace();
    if (Cur() == ']') return Close();
    TakeComma(']');
    return true;
  }

  // Valid until the next string or key is read.
  std::string_view ReadString();
  uint64_t ReadUint64() {
    SkipSpace();
    return ReadDigits(UINT64_MAX);
  }
  int64_t ReadInt64();
  double ReadDouble();
  bool ReadBool();
  void SkipValue();
  // Every value read, only whitespace left.
  void ExpectEnd();

  size_t offset() const { return pos_; }
  [[noreturn]] void Fail(std::string_view reason) const { FailAt(reason, pos_); }

 private:
  char Cur() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void SkipSpace() {
    if (static_cast<unsigned char>(Cur()) <= ' ') SkipSpaceSlow();
  }
  void SkipSpaceSlow();
  void Begin(char open);
  bool Close() {
    ++pos_;
    --depth_;
    return false;
  }
  // Before every element but the first, a ',' (or `close`).
  void TakeComma(char close) {
    uint64_t bit = uint64_t{1} << (depth_ - 1);
    if (first_bits_ & bit) {
      first_bits_ &= ~bit;
      return;
    }
    if (Cur() != ',') FailExpected(close);
    ++pos_;
  }
  uint64_t ReadDigits(uint64_t max);
  std::string_view ReadEscapedString(size_t start);
  void AppendEscape();
  uint32_t ReadHex4();
  void ScanNumber();
  void ExpectLiteral(std::string_view word);
  [[noreturn]] void FailExpected(char close) const;
  [[noreturn]] void FailAt(std::string_view reason, size_t offset) const;

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
  uint64_t first_bits_ = 0;  // bit d: no element read yet at depth d+1
  std::string scratch_;      // strings with escapes or non-ASCII bytes
};

}  // namespace pm
