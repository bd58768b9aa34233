// What a fuzz target does when a property fails: say which, then abort, so
// libFuzzer saves the input as a crash (an escaped exception does the same).
#pragma once

#include <cstdio>
#include <cstdlib>

namespace pm::fuzz {

inline void Require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz property failed: %s\n", what);
  std::abort();
}

}  // namespace pm::fuzz
