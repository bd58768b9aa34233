#include <doctest/doctest.h>

#include <optional>
#include <string_view>

#include "tools/duration.hh"

TEST_CASE("durations: float seconds or a number with a unit") {
  struct Row { std::string_view text; std::optional<int64_t> ns; };
  const Row rows[] = {
      {"1", 1'000'000'000},          {"0.5", 500'000'000},
      {"0.001", 1'000'000},          {"500ms", 500'000'000},
      {"2s", 2'000'000'000},         {"1.5m", 90'000'000'000},
      {"1h", 3'600'000'000'000},     {"250us", 250'000},
      {"250\xc2\xb5s", 250'000},     {"10ns", 10},
      {"0", 0},                      {"0ms", 0},
      {"", std::nullopt},            {"ms", std::nullopt},
      {"abc", std::nullopt},         {"-1", std::nullopt},
      {"1x", std::nullopt},          {"1 s", std::nullopt},
      {"1e3", std::nullopt},         {"nan", std::nullopt},
      {"1e400", std::nullopt},       {"99999999999h", std::nullopt},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    CHECK(pm::ParseDurationNs(row.text) == row.ns);
  }
}

TEST_CASE("durations: Go's compound syntax (time.ParseDuration)") {
  struct Row { std::string_view text; std::optional<int64_t> ns; };
  const Row rows[] = {
      {"1h30m", 5'400'000'000'000},   {"1m0.5s", 60'500'000'000},
      {"2h45m30.5s", 9'930'500'000'000},
      {"1s500ms", 1'500'000'000},     {"1.5h", 5'400'000'000'000},
      {".5s", 500'000'000},           {"1.s", 1'000'000'000},
      {"1\xce\xbcs", 1'000},          {"3m3m", 360'000'000'000},
      {"0.0000000015s", 2},           {"1.000000000123456789s", 1'000'000'000},
      {"1h30", std::nullopt},         {"1h 30m", std::nullopt},
      {"h30m", std::nullopt},         {"1hm", std::nullopt},
      {".s", std::nullopt},           {"1s-2ms", std::nullopt},
      {"+1s", std::nullopt},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    CHECK(pm::ParseDurationNs(row.text) == row.ns);
  }
}

TEST_CASE("durations: beyond int64 nanoseconds is 'too large', not 'not a duration'") {
  using pm::DurationError;
  struct Row { std::string_view text; DurationError error; };
  const Row rows[] = {
      {"10000000000", DurationError::kTooLarge},      // -i 10000000000 (seconds)
      {"99999999999h", DurationError::kTooLarge},
      {"2562048h", DurationError::kTooLarge},
      {"2562047h47m16.854775808s", DurationError::kTooLarge},
      {"2562047h47m16.854775807s", DurationError::kNone},  // INT64_MAX ns
      {"9223372036854775807ns", DurationError::kNone},
      {"9223372036854775808ns", DurationError::kTooLarge},
      {"99999999999999999999999", DurationError::kTooLarge},
      {"1e400", DurationError::kNotADuration},
      {"ten", DurationError::kNotADuration},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    CHECK(pm::ParseDuration(row.text).error == row.error);
  }
  CHECK(pm::ParseDuration("9223372036854775807ns").ns == INT64_MAX);
}
