// Durations on the command line, as PerfMonger accepts them: float seconds
// ("0.5") or Go's time.ParseDuration syntax, a sequence of numbers with
// units ("500ms", "2s", "1.5m", "1h30m", "1m0.5s"; units ns us µs ms s m h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pm {

enum class DurationError { kNone, kNotADuration, kTooLarge };

struct ParsedDuration {
  int64_t ns = 0;
  DurationError error = DurationError::kNone;
};

// Nanoseconds, or why `text` is not a non-negative duration that fits in
// int64 nanoseconds (about 292 years).
ParsedDuration ParseDuration(std::string_view text);

// Nanoseconds, or nullopt for any error.
std::optional<int64_t> ParseDurationNs(std::string_view text);

// For `--flag TEXT`: nanoseconds, or a UsageError naming the flag and the fix.
int64_t DurationArgument(std::string_view flag, std::string_view text);

}  // namespace pm
