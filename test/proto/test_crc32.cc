#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "proto/crc32.hh"

namespace {

uint32_t ZlibCrc32(uint32_t crc, std::span<const char> bytes) {
  return static_cast<uint32_t>(
      crc32_z(crc, reinterpret_cast<const Bytef*>(bytes.data()), bytes.size()));
}

}  // namespace

TEST_CASE("Crc32 is zlib's crc32 for every length, alignment and starting CRC") {
  std::mt19937_64 rng(7);
  std::vector<char> bytes(70'000);
  for (char& c : bytes) c = static_cast<char>(rng());
  for (int i = 0; i < 20'000; ++i) {
    size_t at = rng() % 64;
    size_t length = i < 15'000 ? rng() % 300 : rng() % 65'000;  // short ones: every tail size
    uint32_t crc = rng() % 4 == 0 ? 0 : static_cast<uint32_t>(rng());
    std::span<const char> part(bytes.data() + at, length);
    CAPTURE(at);
    CAPTURE(length);
    CAPTURE(crc);
    REQUIRE(pm::Crc32(crc, part) == ZlibCrc32(crc, part));
  }
}

TEST_CASE("Crc32 carried over pieces is the CRC of the whole") {
  const std::string text(100'000, 'x');
  std::mt19937_64 rng(8);
  uint32_t crc = 0;
  for (size_t at = 0; at < text.size();) {
    size_t n = std::min<size_t>(text.size() - at, 1 + rng() % 5000);
    crc = pm::Crc32(crc, std::span(text.data() + at, n));
    at += n;
  }
  CHECK(crc == ZlibCrc32(0, text));
  CHECK(pm::Crc32(0, {}) == 0);
  CHECK(pm::Crc32(0, std::span<const char>("123456789", 9)) == 0xCBF43926);  // the check value
}
