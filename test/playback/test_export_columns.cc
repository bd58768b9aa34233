// play --format columns writes each cell as the double its CSV text reads
// as (FixedValue, without the text): each must be the double from_chars
// gives for WriteFixed's text (so it equals play's JSON), by the fast
// path as by the general one.
#include <doctest/doctest.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include "proto/text.hh"

namespace pm {
namespace {

uint64_t FromChars(std::string_view text) {
  if (text.front() == '+') text.remove_prefix(1);  // "+Inf": from_chars takes no '+'
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

void Check(double v, int digits) {
  std::string text = Fixed(v, digits);
  if (std::bit_cast<uint64_t>(FixedValue(v, digits)) == FromChars(text)) return;
  CAPTURE(text);
  CHECK(std::bit_cast<uint64_t>(FixedValue(v, digits)) == FromChars(text));
}

TEST_CASE("columns: every cell is the double its text reads as") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < 200000; ++i) {
    // Rates from 0 to 10^13 (kB/s, ns), shares, negatives, exact ties.
    double v = std::pow(10.0, unit(rng) * 13 - 2) * (i % 7 == 0 ? -1 : 1);
    if (i % 11 == 0) v = std::round(v * 8) / 8;
    for (int digits = 0; digits <= 3; ++digits) Check(v, digits);
  }
}

TEST_CASE("columns: the cells beyond the fast path, and the special values") {
  for (double v : {1e16, 12345678901234567.0, 1234567890123.4567, 1e-16, 0x1p52, 0x1p53 + 2,
                   0.0005, 0.0015, 2.5, -0.001, 1e300, 5e-324})
    for (int digits : {0, 1, 2, 3, 4, 9}) {
      CAPTURE(v);
      CAPTURE(digits);
      Check(v, digits);
      Check(-v, digits);
    }
  CHECK(std::signbit(FixedValue(-0.001, 2)));  // "-0.00"
  CHECK(std::signbit(FixedValue(-0.0, 2)));
  CHECK(std::bit_cast<uint64_t>(FixedValue(NAN, 2)) == FromChars("NaN"));
  CHECK(std::bit_cast<uint64_t>(FixedValue(-NAN, 2)) == FromChars("NaN"));
  CHECK(FixedValue(INFINITY, 2) == INFINITY);
  CHECK(FixedValue(-INFINITY, 2) == -INFINITY);
}

}  // namespace
}  // namespace pm
