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
// (figures in README.md).
//
// Errors carry no byte position (a DOM keeps none): JsonError's offset is
// 0, the start of the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
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

  JsonReader();
  explicit JsonReader(std::string_view text) : JsonReader() { Reset(text); }
  ~JsonReader();
  JsonReader(const JsonReader&) = delete;
  JsonReader& operator=(const JsonReader&) = delete;

  // Parses `text` (throws JsonError if it is not one valid JSON value) and
  // puts the cursor before it. The parser's buffers are kept.
  void Reset(std::string_view text);

  // The type of the next value (not consumed); throws if there is none.
  Type Peek();
  // Consumes `null` when it comes next.
  bool TryNull();

  void BeginObject();
  // The next member's key; false at the object's end (then closed). Valid
  // until the next Reset().
  bool NextKey(std::string_view& key);
  void BeginArray();
  // true: an element follows (the caller reads it); false at the array's
  // end (then closed).
  bool NextElement();

  // Valid until the next Reset().
  std::string_view ReadString();
  uint64_t ReadUint64();
  int64_t ReadInt64();
  double ReadDouble();
  bool ReadBool();
  void SkipValue();
  // Every value read.
  void ExpectEnd();

  size_t offset() const { return 0; }
  [[noreturn]] void Fail(std::string_view reason) const;

 private:
  struct Cursor;  // simdjson's types stay in json_reader.cc
  std::unique_ptr<Cursor> cursor_;
};

}  // namespace pm
