// Byte-level text helpers shared by the JSON writer, the JSON reader, the
// --meta decoder and every message or report that quotes outside text.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace pm {

inline constexpr char kHexDigits[] = "0123456789abcdef";

// Two lowercase hex digits of `c`.
inline void AppendHexByte(std::string& out, unsigned char c) {
  out.push_back(kHexDigits[c >> 4]);
  out.push_back(kHexDigits[c & 0xf]);
}

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

// The one escaper for outside text (a --meta argument, a mark label, a
// device, interface, cgroup or process name, a file name) on its way to a
// terminal, a message or a text report: nothing in the result can move
// the cursor, set a title or start an escape sequence. \n \t \r become
// C-style escapes; every other C0 control byte, DEL, each byte of a C1
// control (U+0080-U+009F, which terminals take as ESC-sequences) and each
// byte that is not part of valid UTF-8 becomes \xNN; everything else
// (printable ASCII, the backslash included, and other UTF-8) is kept.
// Idempotent: escaping escaped text changes nothing, so a message may be
// escaped whole at the line that prints it. Text without a backslash is
// recovered exactly by reading the escapes back.
void AppendPrintable(std::string& out, std::string_view s);
std::string Printable(std::string_view s);
// Text of lines, each line Printable(), its '\n' kept: a report made for
// a terminal, escaped once more as a whole before it is shown.
std::string PrintableLines(std::string_view text);

// Decimal numbers written at `p`, returning the end: the hot path of every
// `play` line, so no allocation and no locale. `p` must have room for
// kUintTextMax (WriteUint, WriteInt) or kFixedTextMax (WriteFixed) bytes.
inline constexpr size_t kUintTextMax = 20;
inline constexpr int kFixedPrecisionMax = 17;
inline constexpr size_t kFixedTextMax = 1 + 309 + 1 + kFixedPrecisionMax;  // -DBL_MAX
char* WriteUint(char* p, uint64_t v);
char* WriteInt(char* p, int64_t v);

// WriteFixed for v != 0 (or NaN); WriteFixed inlines the zero case, over
// half of the numbers a resting machine's `play` prints.
char* WriteFixedNonZero(char* p, double v, int precision);

// Go's strconv.FormatFloat(v, 'f', precision, 64), i.e. fmt's "%.<p>f":
// correctly rounded from the exact binary value (ties of the exact value to
// even), trailing zeros kept, "-" on negative zero and on negative values
// that round to zero, NaN and infinities spelled "NaN" "+Inf" "-Inf".
// 0 <= precision <= kFixedPrecisionMax.
inline char* WriteFixed(char* p, double v, int precision) {
  if (v != 0) return WriteFixedNonZero(p, v, precision);
  static constexpr char kZero[] = "0.00000000000000000";
  static_assert(sizeof kZero - 1 == 2 + kFixedPrecisionMax && sizeof kZero < kFixedTextMax);
  if (std::signbit(v)) *p++ = '-';  // -0.0 keeps its sign, as in Go
  std::memcpy(p, kZero, sizeof kZero - 1);  // one fixed-size copy, then cut
  return p + (precision == 0 ? 1 : 2 + precision);
}
void AppendFixed(std::string& out, double v, int precision);
// The double that WriteFixed's text reads back as (from_chars): what a
// reader of the printed number gets, without the text. NaN is the quiet
// NaN, infinities and zeros keep their sign.
double FixedValue(double v, int precision);

// Text written at a cursor into a buffer on the stack, then appended to a
// string at once: one capacity check and one copy per object instead of
// one per piece. The caller sizes the buffer from its fixed keys and the
// *TextMax bounds; nothing is checked at run time. The cursor is a local
// (p = Put(p, ...)), not a member: a store through a char* may alias any
// object's member, which would then be reloaded after every byte written.
inline char* Put(char* p, std::string_view s) {
  std::memcpy(p, s.data(), s.size());
  return p + s.size();
}
inline char* Put(char* p, char c) {
  *p = c;
  return p + 1;
}
// The first `used` bytes of `slot`, copied whole (a constant size, no
// memcpy call): the M bytes must fit where the text goes.
template <size_t M>
char* PutSlot(char* p, const char (&slot)[M], size_t used) {
  std::memcpy(p, slot, M);
  return p + used;
}
inline void AppendWritten(std::string& out, const char* begin, const char* end) {
  out.append(begin, static_cast<size_t>(end - begin));
}

}  // namespace pm
