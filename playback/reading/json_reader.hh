// A pull reader for one JSON text (one .pgr line), on simdjson's DOM
// parser. Reset() validates the whole text (simdjson's kernel for this
// CPU, chosen at run time); the caller then walks the structure it expects
// and skips what it does not:
//
//   r.Reset(line);
//   r.BeginObject();
//   for (std::string_view key; r.NextKey(key);)
//     if (key == "t") t = r.ReadInt64(); else r.SkipValue();
//   r.ExpectEnd();
//
// Strict RFC 8259 as simdjson checks it: no comments, no trailing commas,
// no leading zeros, no raw control bytes in strings, valid UTF-8, escapes
// decoded (\u0000 kept as a NUL byte). Nesting deeper than kMaxDepth is an
// error. Integers must fit the type asked for, and an integer read refuses
// a fraction or exponent.
//
// Why the DOM and not On-Demand: simdjson 3.0 binds On-Demand to the kernel
// of the compile flags, and the executable is built for any x86-64, so
// On-Demand would run the scalar fallback; the DOM dispatches at run time
// (figures in bench/README.md). The walk reads the DOM's tape directly (its
// layout is simdjson's doc/tape.md; the version is pinned by the wrap's
// sha256): every step is a load and a compare, inlined here, and simdjson's
// headers stay inside json_reader.cc.
//
// Errors carry no byte position (a DOM keeps none): JsonError's offset is
// 0, the start of the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "common/error.hh"

namespace pm {

// "REASON at byte N", N the offset in the text given to the reader (0:
// see above).
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

  JsonReader();
  explicit JsonReader(std::string_view text) : JsonReader() { Reset(text); }
  ~JsonReader();
  JsonReader(const JsonReader&) = delete;
  JsonReader& operator=(const JsonReader&) = delete;

  // Parses `text` (throws JsonError unless it is one valid JSON value) and
  // puts the cursor before it. The parser's buffers are kept.
  void Reset(std::string_view text);

  // The type of the next value (not consumed); throws if there is none.
  Type Peek() const;
  // Consumes `null` when it comes next.
  bool TryNull() { return Tag() == 'n' ? (++pos_, true) : false; }

  void BeginObject() { Open('{', "expected an object"); }
  // The next member's key; false at the object's end (then closed). Valid
  // until the next Reset().
  bool NextKey(std::string_view& key) {
    if (Tag() == '}') return ++pos_, false;
    key = ReadString();
    return true;
  }
  void BeginArray() { Open('[', "expected an array"); }
  // true: an element follows (the caller reads it); false at the array's
  // end (then closed).
  bool NextElement() { return Tag() == ']' ? (++pos_, false) : true; }

  // Valid until the next Reset().
  std::string_view ReadString() {
    if (Tag() != '"') Fail("expected a string");
    return StringAt(pos_++);
  }
  uint64_t ReadUint64() {
    uint64_t tag = Tag();
    if (tag != 'u' && tag != 'l') Fail("expected an integer");
    uint64_t v = tape_[pos_ + 1];
    if (tag == 'l' && static_cast<int64_t>(v) < 0) Fail("expected a non-negative integer");
    pos_ += 2;
    return v;
  }
  int64_t ReadInt64() {
    uint64_t tag = Tag();
    if (tag == 'u') Fail("integer out of range");
    if (tag != 'l') Fail("expected an integer");
    pos_ += 2;
    return static_cast<int64_t>(tape_[pos_ - 1]);
  }
  double ReadDouble();
  bool ReadBool();
  void SkipValue();
  // Every value read.
  void ExpectEnd() const {
    if (pos_ != end_) Fail("unread values in the text");
  }

  [[noreturn]] void Fail(std::string_view reason) const;

 private:
  struct Parser;  // simdjson's dom::parser, kept out of this header

  // The tape word's type: '{' '}' '[' ']' '"' 'l' 'u' 'd' 't' 'f' 'n' 'r'.
  uint64_t Tag() const { return tape_[pos_] >> 56; }
  uint64_t Payload(size_t at) const { return tape_[at] & ((uint64_t{1} << 56) - 1); }
  // A string's bytes follow their 32-bit little-endian length.
  std::string_view StringAt(size_t at) const {
    const uint8_t* p = strings_ + Payload(at);
    uint32_t length;
    std::memcpy(&length, p, sizeof length);
    return {reinterpret_cast<const char*>(p + sizeof length), length};
  }
  void Open(char tag, std::string_view error) {
    if (Tag() != static_cast<uint64_t>(tag)) Fail(error);
    ++pos_;
  }

  std::unique_ptr<Parser> parser_;
  const uint64_t* tape_;
  const uint8_t* strings_ = nullptr;
  size_t pos_ = 0;  // the next word to read
  size_t end_ = 0;  // the closing root word
};

}  // namespace pm
