// Byte-level text helpers shared by the JSON writer, the JSON reader and
// the --meta decoder.
#pragma once

#include <cstddef>
#include <string_view>

namespace pm {

// 0-15 for a hex digit of either case, -1 otherwise.
inline int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The length of the valid multi-byte UTF-8 sequence at the start of `s`
// (its first byte >= 0x80), or 0: overlong forms, surrogates, code points
// above U+10FFFF and sequences cut by the end of `s` are invalid.
size_t Utf8SequenceLength(std::string_view s);

}  // namespace pm
