// Where the every-cut and every-flipped-byte tests cut or flip their
// bytes. A plain build tries every position. A sanitizer makes each
// reading 10 to 50 times slower, so an ASan or TSan build tries a spread
// of them instead: the first and last few (magic numbers, headers,
// trailers), and others drawn by a generator seeded with $PM_TEST_SEED
// (1 if unset): the same positions every run, and another seed tries
// others. The positions come sorted.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <random>
#include <vector>

#include "common/sanitizers.hh"

namespace pm::test {

#if defined(PM_ADDRESS_SANITIZER) || defined(PM_THREAD_SANITIZER)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

// Positions in [begin, end): all of them, or under a sanitizer `spread`
// of them (all when there are no more).
inline std::vector<size_t> Positions(size_t begin, size_t end, size_t spread = 96) {
  std::vector<size_t> all;
  for (size_t at = begin; at < end; ++at) all.push_back(at);
  if (!kSanitized || all.size() <= spread) return all;
  const size_t edge = std::min<size_t>(16, spread / 4);  // each end's, always tried
  std::vector<size_t> picked(all.begin(), all.begin() + edge);
  picked.insert(picked.end(), all.end() - edge, all.end());
  const char* seed = std::getenv("PM_TEST_SEED");
  std::mt19937_64 random(seed ? std::strtoull(seed, nullptr, 10) : 1);
  std::sample(all.begin() + edge, all.end() - edge, std::back_inserter(picked),
              spread - 2 * edge, random);
  std::sort(picked.begin(), picked.end());
  return picked;
}

}  // namespace pm::test
