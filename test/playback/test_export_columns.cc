// play --format columns reads the CSV's cells back as doubles: each must be
// the double from_chars gives for the text (so it equals play's JSON), by
// the fast fixed-point path as by the general one.
#include <doctest/doctest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>

#include "playback/outputs/export_columns.hh"
#include "proto/text.hh"

namespace pm {
namespace {

uint64_t FromChars(std::string_view text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  REQUIRE(ec == std::errc());
  REQUIRE(end == text.data() + text.size());
  return std::bit_cast<uint64_t>(v);
}

std::string Fixed(double v, int digits) {
  char buf[kFixedTextMax];
  return std::string(buf, WriteFixed(buf, v, digits));
}

TEST_CASE("columns: every fixed-point cell reads as from_chars reads it") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 200000; ++i) {
    // Rates from 0 to 10^13 (kB/s, ns), shares, negatives, exact ties.
    double v = std::pow(10.0, unit(rng) * 13 - 2) * (i % 7 == 0 ? -1 : 1);
    if (i % 11 == 0) v = std::round(v * 8) / 8;
    for (int digits = 0; digits <= 3; ++digits) {
      std::string text = Fixed(v, digits);
      CAPTURE(text);
      REQUIRE(ColumnCellBits(text) == FromChars(text));
    }
  }
}

TEST_CASE("columns: the cells that take the general path") {
  for (const char* text : {"12345678901234567", "1234567890123.4567", "0.0000000000000001",
                           "1e5", "-0.00", "0", "-7", "123.", "NaN"}) {
    CAPTURE(text);
    CHECK(ColumnCellBits(text) == FromChars(text));
  }
  CHECK(std::signbit(std::bit_cast<double>(ColumnCellBits("-0.00"))));
  CHECK(std::isnan(std::bit_cast<double>(ColumnCellBits(""))));  // an empty cell
  CHECK(std::bit_cast<double>(ColumnCellBits("+Inf")) == INFINITY);
  CHECK(std::bit_cast<double>(ColumnCellBits("-Inf")) == -INFINITY);
  for (const char* bad : {"-", ".", "1.2.3", "12a", "host"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(ColumnCellBits(bad), std::logic_error);
  }
}

}  // namespace
}  // namespace pm
