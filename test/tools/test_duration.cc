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
