// Decimal digits read and written eight at a time (SWAR), for the v2
// transform's hot loops (proto/pgr_delta.cc): a sample line holds ~200
// integers, and a digit-at-a-time loop whose exit depends on each number's
// length costs a mispredicted branch per number. Writers need 8 bytes of
// slack after what they write; readers load 8 bytes only when the caller
// says they are there.
#pragma once

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>

namespace pm::digits {

static_assert(std::endian::native == std::endian::little,
              "the 8-byte digit tricks read the first character in the low byte");

inline uint64_t Load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline void Store8(char* p, uint64_t v) { std::memcpy(p, &v, 8); }

inline constexpr uint64_t kZeros = 0x3030303030303030;  // "00000000"

// How many of the 8 characters in `w` (first in the low byte) are digits
// before the first that is not. No carry crosses bytes: each byte sum is
// at most 0x7F + 0x76.
inline unsigned LeadingDigits(uint64_t w) {
  uint64_t x = w ^ kZeros;
  uint64_t not_digit = (((x & 0x7F7F7F7F7F7F7F7F) + 0x7676767676767676) | x) & 0x8080808080808080;
  return not_digit == 0 ? 8 : static_cast<unsigned>(std::countr_zero(not_digit)) / 8;
}

// The value of the first `n` (1..8) digits in `w`.
inline uint64_t ValueOf(uint64_t w, unsigned n) {
  uint64_t x = (w ^ kZeros) << (8 * (8 - n));  // the rest shifted out, zeros in front
  x = x * 10 + (x >> 8);
  x = ((x & 0x000000FF000000FF) * (100 + (1000000ULL << 32)) +
       ((x >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32))) >> 32;
  return x;
}

inline constexpr uint64_t kPow10[9] = {1, 10, 100, 1000, 10000, 100000, 1000000,
                                       10000000, 100000000};

// Parses the digits at `p[i..end)` into `v`, advancing `i` past them
// (none: `i` stays). False on overflow of 64 bits.
inline bool ParseDigits(const char* p, size_t& i, size_t end, uint64_t& v) {
  const size_t start = i;
  v = 0;
  while (end - i >= 8) {
    uint64_t w = Load8(p + i);
    unsigned n = LeadingDigits(w);
    if (n == 0) return true;
    uint64_t part = ValueOf(w, n);
    if (i - start + n > 19 && v > (UINT64_MAX - part) / kPow10[n]) return false;
    v = v * kPow10[n] + part;
    i += n;
    if (n < 8) return true;
  }
  for (; i < end && p[i] >= '0' && p[i] <= '9'; ++i) {
    uint64_t d = static_cast<uint64_t>(p[i] - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  return true;
}

// `v` < 10^8 as 8 digit values, most significant in the low byte.
inline uint64_t EightDigitValues(uint64_t v) {
  uint64_t merged = (v / 10000) | ((v % 10000) << 32);
  uint64_t top = ((merged * 10486) >> 20) & ((0x7FULL << 32) | 0x7F);  // /100
  uint64_t hundreds = ((merged - 100 * top) << 16) + top;
  uint64_t tens = (hundreds * 103) >> 10;  // /10
  tens &= (0xFULL << 48) | (0xFULL << 32) | (0xFULL << 16) | 0xF;
  return tens + ((hundreds - 10 * tens) << 8);
}

// Writes `v` at `p` (8 bytes of slack after it), returns the end.
inline char* WriteUint(char* p, uint64_t v) {
  if (v < 10) {
    *p = static_cast<char>('0' + v);
    return p + 1;
  }
  if (v < 100000000) {
    uint64_t d = EightDigitValues(v);
    unsigned zeros = static_cast<unsigned>(std::countr_zero(d)) / 8;
    Store8(p, (d + kZeros) >> (8 * zeros));
    return p + 8 - zeros;
  }
  p = WriteUint(p, v / 100000000);
  Store8(p, EightDigitValues(v % 100000000) + kZeros);
  return p + 8;
}

inline char* WriteInt(char* p, int64_t v) {
  if (v >= 0) return WriteUint(p, static_cast<uint64_t>(v));
  *p = '-';
  return WriteUint(p + 1, 0 - static_cast<uint64_t>(v));
}

}  // namespace pm::digits
