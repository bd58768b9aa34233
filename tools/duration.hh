// Durations on the command line, as PerfMonger accepts them: float seconds
// ("0.5") or a number with a unit ("500ms", "2s", "1.5m", "250us").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace pm {

// Nanoseconds, or nullopt if `text` is not a non-negative duration.
std::optional<int64_t> ParseDurationNs(std::string_view text);

}  // namespace pm
