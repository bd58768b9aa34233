// Shapes of printed text the process tests check (times, durations), by
// hand: <regex> costs seconds in every file that includes it.
#pragma once

#include <cstddef>
#include <string_view>

namespace pm::test {

// "2026-11-29T08:07:30.123456Z": RFC 3339 in UTC, the fraction optional.
bool IsRfc3339Utc(std::string_view s);

// "12.345 sec" for (s, 3, " sec"): digits, '.', exactly `decimals` digits,
// then `suffix`.
bool IsFixedPoint(std::string_view s, size_t decimals, std::string_view suffix);

// How many times `what` occurs in `text`, overlapping ones each counted.
size_t Occurrences(std::string_view text, std::string_view what);

}  // namespace pm::test
