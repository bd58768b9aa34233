// Decimal numbers (proto/text.hh): every digit `play` prints goes through
// them, so each is checked against glibc's printf, which is exact: "%.*f"
// rounds the exact binary value, ties to even, as Go's FormatFloat does.
#include <doctest/doctest.h>

#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "proto/text.hh"

namespace {

std::string Fixed(double v, int precision) {
  std::string out;
  pm::AppendFixed(out, v, precision);
  return out;
}

// printf spells NaN and the infinities its own way; Go's are "NaN" "+Inf" "-Inf".
std::string Reference(double v, int precision) {
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return std::string(buf, static_cast<size_t>(n));
}

void CheckAgainstPrintf(double v) {
  for (int precision = 0; precision <= 4; ++precision) {
    std::string got = Fixed(v, precision);
    std::string want = Reference(v, precision);
    if (got != want) {  // CHECK only on failure: millions of values
      CAPTURE(v);
      CAPTURE(precision);
      CHECK(got == want);
    }
  }
}

std::string Uint(uint64_t v) {
  char buf[pm::kUintTextMax];
  return std::string(buf, pm::WriteUint(buf, v));
}

std::string Int(int64_t v) {
  char buf[pm::kUintTextMax];
  return std::string(buf, pm::WriteInt(buf, v));
}

}  // namespace

TEST_SUITE("text numbers") {

TEST_CASE("WriteUint and WriteInt spell every digit count and both ends") {
  uint64_t v = 1;
  for (int digits = 1; digits <= 20; ++digits, v *= 10) {
    CHECK(Uint(v) == std::to_string(v));
    CHECK(Uint(v - 1) == std::to_string(v - 1));
    if (digits < 20) CHECK(Uint(v * 10 - 1) == std::to_string(v * 10 - 1));
  }
  CHECK(Uint(0) == "0");
  CHECK(Uint(UINT64_MAX) == "18446744073709551615");
  CHECK(Int(0) == "0");
  CHECK(Int(-7) == "-7");
  CHECK(Int(INT64_MIN) == "-9223372036854775808");
  CHECK(Int(INT64_MAX) == "9223372036854775807");
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100'000; ++i) {
    uint64_t u = rng() >> (rng() % 64);
    if (Uint(u) != std::to_string(u)) CHECK(Uint(u) == std::to_string(u));
    auto s = static_cast<int64_t>(rng()) >> (rng() % 64);
    if (Int(s) != std::to_string(s)) CHECK(Int(s) == std::to_string(s));
  }
}

TEST_CASE("WriteFixed: ties, negative zero, tiny, huge and Go's special values") {
  struct Row { double v; int precision; std::string_view out; };
  const Row rows[] = {
      {0.125, 2, "0.12"},  {0.375, 2, "0.38"},  {2.675, 2, "2.67"},
      {1.005, 2, "1.00"},  {2.5, 0, "2"},       {3.5, 0, "4"},
      {0.0005, 3, "0.001"},  // the double is a little above the tie
      {0.0, 0, "0"},       {-0.0, 0, "-0"},     {0.0, 3, "0.000"},
      {0.0, 17, "0.00000000000000000"},
      {-0.0, 2, "-0.00"},  {-0.001, 2, "-0.00"},  {99.995, 2, "100.00"},
      {5e-324, 2, "0.00"}, {-5e-324, 3, "-0.000"},
      {1e15 + 0.5, 0, "1000000000000000"}, {1e15 + 0.5, 1, "1000000000000000.5"},
      {1796102701.1235, 3, "1796102701.124"}, {1796102701.124, 3, "1796102701.124"},
      {1e21, 2, "1000000000000000000000.00"},
      {std::numeric_limits<double>::quiet_NaN(), 2, "NaN"},
      {HUGE_VAL, 2, "+Inf"}, {-HUGE_VAL, 3, "-Inf"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.v);
    CHECK(Fixed(r.v, r.precision) == r.out);
  }
  CHECK(Fixed(DBL_MAX, 2) == Reference(DBL_MAX, 2));
  CHECK(Fixed(-DBL_MAX, pm::kFixedPrecisionMax) == Reference(-DBL_MAX, pm::kFixedPrecisionMax));
  CHECK(Fixed(DBL_MIN, pm::kFixedPrecisionMax) == Reference(DBL_MIN, pm::kFixedPrecisionMax));
}

TEST_CASE("WriteFixed agrees with printf near every rounding boundary") {
  // Decimal ties k/2·10^-p and their neighbours one and a few ulps away,
  // at every magnitude the fast path takes and the first it does not.
  for (int exponent = -4; exponent <= 16; ++exponent) {
    double scale = std::pow(10.0, exponent);
    for (int k = 1; k < 2000; k += 7) {
      double tie = (k + 0.5) * scale / 1000;
      for (double v : {tie, std::nextafter(tie, 0.0), std::nextafter(tie, HUGE_VAL),
                       tie * (1 + 1e-13), tie * (1 - 1e-13), -tie})
        CheckAgainstPrintf(v);
    }
  }
  for (double v : {0x1p52, std::nextafter(0x1p52, 0.0), 0x1p52 / 1000, 0x1p52 / 100,
                   std::nextafter(0x1p52 / 1000, HUGE_VAL), 0x1p51 + 0.5, 0x1p53 + 2,
                   DBL_MIN, DBL_MIN / 3, 4.9406564584124654e-324})
    CheckAgainstPrintf(v);
}

TEST_CASE("WriteFixed agrees with printf on random values of every magnitude") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < 300'000; ++i) {
    double v = unit(rng) * std::pow(10.0, static_cast<int>(rng() % 20) - 5);
    if (i % 4 == 1) v = static_cast<double>(rng() % 100'000'000) / 8;  // exact ties
    if (i % 4 == 2) v = std::round(v * 1000) / 1000 + 0.0005;         // near ties
    if (rng() & 1) v = -v;
    CheckAgainstPrintf(v);
  }
  for (int i = 0; i < 20'000; ++i) {  // any bit pattern: subnormals, huge, NaN
    uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (std::isfinite(v)) CheckAgainstPrintf(v);
  }
}

}  // TEST_SUITE
