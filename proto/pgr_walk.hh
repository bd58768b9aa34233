// The byte walks a Baseline makes over sample lines, shared by the
// writer's (proto/pgr_baseline.cc) and the readers' (playback/
// reader_baseline.cc): each is run once per sample, so they are inline.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "proto/digits.hh"

namespace pm::walk {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// An unsigned integer as JSON writes one (no leading zero) at `line[i]`,
// advancing `i` past it.
inline bool ReadCounter(std::string_view line, size_t& i, uint64_t& v) {
  size_t start = i;
  if (!digits::ParseDigits(line.data(), i, line.size(), v) || i == start) return false;
  return i - start == 1 || line[start] != '0';
}

// How many bytes `a` and `b` have in common from the start, up to `n`:
// 16 at a time where SSE2 is (every x86-64), else 8.
inline size_t CommonPrefix(const char* a, const char* b, size_t n) {
  size_t k = 0;
#ifdef __SSE2__
  for (; k + 16 <= n; k += 16) {
    __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + k));
    __m128i y = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b + k));
    if (unsigned same = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, y)));
        same != 0xFFFF)
      return k + static_cast<size_t>(std::countr_one(same));
  }
#endif
  for (; k + 8 <= n; k += 8) {
    if (uint64_t d = digits::Load8(a + k) ^ digits::Load8(b + k))
      return k + static_cast<size_t>(std::countr_zero(d)) / 8;
  }
  while (k < n && a[k] == b[k]) ++k;
  return k;
}

// Where `line` and `ref` first differ from `line[at + shift]` and `ref[at]`
// on, as an offset in `ref`.
inline size_t NextDifference(std::string_view line, std::string_view ref, size_t at,
                             ptrdiff_t shift) {
  size_t in_line = at + static_cast<size_t>(shift);
  return at + CommonPrefix(line.data() + in_line, ref.data() + at,
                           std::min(line.size() - in_line, ref.size() - at));
}

inline char* Append(char* out, std::string_view from, size_t begin, size_t end) {
  std::memcpy(out, from.data() + begin, end - begin);
  return out + (end - begin);
}

}  // namespace pm::walk
