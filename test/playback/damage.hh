// What a damaged line reported: the error inside the first warning of a
// reader (RecordingReader or NativeReader) that skipped a damaged span,
// "line L lost (ERROR), WHEN; RESUMED" — the error the read would have
// ended with before damaged lines were skipped.
#pragma once

#include <span>
#include <string>

namespace pm::test {

inline std::string FirstDamage(std::span<const std::string> warnings) {
  if (warnings.empty()) return "";
  const std::string& w = warnings.front();
  size_t open = w.find(" lost (");
  size_t close = w.rfind("), ");
  if (open == std::string::npos || close == std::string::npos || close < open) return w;
  return w.substr(open + 7, close - open - 7);
}

}  // namespace pm::test
