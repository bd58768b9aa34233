// Decimal digits read eight at a time (SWAR), for the v2
// transform's hot loops (proto/pgr_walk.hh): a sample line holds ~200
// integers, and a digit-at-a-time loop whose exit depends on each number's
// length costs a mispredicted branch per number. Loads take 8 bytes only
// when the caller says they are there. (Digits are written by WriteUint in
// proto/text.hh.)
#pragma once

#include <bit>
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

}  // namespace pm::digits
