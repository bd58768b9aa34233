#include "proto/crc32.hh"

#include <zlib.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define PM_CRC32_FOLDING 1
#endif

namespace pm {
namespace {

uint32_t TableCrc32(uint32_t crc, std::span<const char> bytes) {
  return static_cast<uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

#ifdef PM_CRC32_FOLDING

// Folding, after Gopal et al., "Fast CRC Computation for Generic
// Polynomials Using PCLMULQDQ Instruction" (Intel, 2009), for the
// bit-reflected CRC-32 (polynomial P = 0x104C11DB7). Four 128-bit lanes
// each carried 512 bits on by multiplying with x^(512±32) mod P, folded
// into one, carried 128 bits at a time, then reduced to 32 bits by a
// Barrett reduction. Constants: bit-reflected x^e mod P, shifted left one
// (e = 544, 480; 160, 96; 64), mu = floor(x^64 / P) and P, reflected in
// 33 bits.
constexpr uint64_t kFold4High = 0x1c6e41596, kFold4Low = 0x154442bd4;
constexpr uint64_t kFold1High = 0x0ccaa009e, kFold1Low = 0x1751997d0;
constexpr uint64_t kFold64 = 0x163cd6124;
constexpr uint64_t kMu = 0x1f7011641, kPoly = 0x1db710641;

__attribute__((target("pclmul,sse4.1"))) __m128i Fold(__m128i lane, __m128i by, __m128i next) {
  __m128i low = _mm_clmulepi64_si128(lane, by, 0x00);
  __m128i high = _mm_clmulepi64_si128(lane, by, 0x11);
  return _mm_xor_si128(_mm_xor_si128(low, high), next);
}

// `bytes`: at least 64 of them, a multiple of 16. `crc` without zlib's
// inversions.
__attribute__((target("pclmul,sse4.1"))) uint32_t FoldedCrc32(uint32_t crc,
                                                              const char* p, size_t n) {
  auto load = [](const char* at) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(at)); };
  __m128i x0 = _mm_xor_si128(load(p), _mm_cvtsi32_si128(static_cast<int>(crc)));
  __m128i x1 = load(p + 16), x2 = load(p + 32), x3 = load(p + 48);
  p += 64;
  n -= 64;
  const __m128i by4 = _mm_set_epi64x(static_cast<long long>(kFold4High),
                                     static_cast<long long>(kFold4Low));
  for (; n >= 64; p += 64, n -= 64) {
    x0 = Fold(x0, by4, load(p));
    x1 = Fold(x1, by4, load(p + 16));
    x2 = Fold(x2, by4, load(p + 32));
    x3 = Fold(x3, by4, load(p + 48));
  }
  const __m128i by1 = _mm_set_epi64x(static_cast<long long>(kFold1High),
                                     static_cast<long long>(kFold1Low));
  __m128i x = Fold(Fold(Fold(x0, by1, x1), by1, x2), by1, x3);
  for (; n >= 16; p += 16, n -= 16) x = Fold(x, by1, load(p));
  // 128 bits to 64 (adding 32 zero bits), then to 32 bits.
  x = _mm_xor_si128(_mm_clmulepi64_si128(by1, x, 0x01), _mm_srli_si128(x, 8));
  const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
  x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, mask32),
                                         _mm_set_epi64x(0, static_cast<long long>(kFold64)), 0x00),
                    _mm_srli_si128(x, 4));
  const __m128i barrett = _mm_set_epi64x(static_cast<long long>(kMu), static_cast<long long>(kPoly));
  __m128i t = _mm_clmulepi64_si128(_mm_and_si128(x, mask32), barrett, 0x10);
  t = _mm_clmulepi64_si128(_mm_and_si128(t, mask32), barrett, 0x00);
  return static_cast<uint32_t>(_mm_extract_epi32(_mm_xor_si128(t, x), 1));
}

// Asked at the first CRC, not at start-up: __builtin_cpu_supports would
// link libgcc's CPU probe, a static constructor every command would run.
bool CanFold() {
  static const bool can = [] {
    unsigned eax, ebx, ecx, edx;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_PCLMUL) && (ecx & bit_SSE4_1);
  }();
  return can;
}

#endif

}  // namespace

uint32_t Crc32(uint32_t crc, std::span<const char> bytes) {
#ifdef PM_CRC32_FOLDING
  if (bytes.size() >= 64 && CanFold()) {
    size_t folded = bytes.size() & ~size_t{15};
    crc = ~FoldedCrc32(~crc, bytes.data(), folded);
    bytes = bytes.subspan(folded);
  }
#endif
  return TableCrc32(crc, bytes);
}

}  // namespace pm
