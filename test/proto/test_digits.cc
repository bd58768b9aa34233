#include <doctest/doctest.h>

#include <charconv>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "proto/digits.hh"

namespace {

std::vector<uint64_t> Interesting() {
  std::vector<uint64_t> v = {0, UINT64_MAX, UINT64_MAX - 1, uint64_t{INT64_MAX},
                             uint64_t{INT64_MAX} + 1};
  for (uint64_t p = 1; p <= UINT64_MAX / 10; p *= 10) {
    v.push_back(p - 1);
    v.push_back(p);
    v.push_back(p + 1);
  }
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) v.push_back(rng() >> (rng() % 64));
  return v;
}

std::string Written(uint64_t v) {
  char buf[24];
  return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

}  // namespace

TEST_CASE("digits: read back whatever follows them and however close the end") {
  for (uint64_t v : Interesting()) {
    for (std::string tail : {"", ",", "]}\n", "12345678x"}) {
      std::string text = "[" + Written(v) + tail;
      size_t i = 1;
      uint64_t got = 1;
      // The digits of the tail continue the number: 8-at-a-time reads
      // must stop exactly where the scalar reading would.
      std::string digits = Written(v) + (tail.starts_with('1') ? "12345678" : "");
      bool fits = digits.size() < 20 || (digits.size() == 20 && digits <= "18446744073709551615");
      REQUIRE(pm::digits::ParseDigits(text.data(), i, text.size(), got) == fits);
      if (!fits) continue;
      CHECK(i == 1 + digits.size());
      CHECK(got == std::stoull(digits));
    }
  }
}

TEST_CASE("digits: no digit reads nothing; 2^64 and beyond overflow") {
  std::string text = "x1";
  size_t i = 0;
  uint64_t v = 5;
  CHECK(pm::digits::ParseDigits(text.data(), i, text.size(), v));
  CHECK(i == 0);
  CHECK(v == 0);
  for (std::string big : {"18446744073709551616", "99999999999999999999",
                          "000000000000000000000000001"}) {
    i = 0;
    bool fits = big.starts_with("0000");  // leading zeros never overflow
    CHECK(pm::digits::ParseDigits(big.data(), i, big.size(), v) == fits);
  }
  CHECK(v == 1);
}
