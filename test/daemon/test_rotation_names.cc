// Rotation's names, periods and retention (daemon/rotation.hh,
// retention.hh): pure functions on times, and retention on a scratch
// directory with planted entries.
#include <doctest/doctest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "daemon/retention.hh"
#include "daemon/rotation.hh"
#include "daemon/test_clock.hh"

namespace pm {
namespace {

constexpr int64_t kSec = 1'000'000'000;
// 2026-12-03 23:59:59 UTC.
constexpr int64_t kLateDec3 = 1796342399 * kSec;

struct UtcZone {
  UtcZone() {
    setenv("TZ", "UTC", 1);
    tzset();
  }
};

TEST_CASE("rotated names carry the local date, hour or second of the first sample") {
  UtcZone utc;
  CHECK(RotatedName(RotateEvery::kDay, kLateDec3, false) == "perfmonger-20261203.pgr.zst");
  CHECK(RotatedName(RotateEvery::kHour, kLateDec3, false) == "perfmonger-20261203-23.pgr.zst");
  CHECK(RotatedName(RotateEvery::kSize, kLateDec3, true) == "perfmonger-20261203-235959.pgr");
  CHECK(RotatedName(RotateEvery::kDay, kLateDec3, false, 2) ==
        "perfmonger-20261203_2.pgr.zst");
  for (RotateEvery every : {RotateEvery::kDay, RotateEvery::kHour, RotateEvery::kSize}) {
    auto parsed = ParseRotatedName(RotatedName(every, kLateDec3, false, 3));
    REQUIRE(parsed);
    CHECK(parsed->suffix == 3);
    CHECK(parsed->start_ns <= kLateDec3);
    CHECK(parsed->start_ns > kLateDec3 - 86400 * kSec);
  }
  for (const char* other : {"perfmonger-2026120.pgr.zst", "perfmonger-20261203.pgr.gz",
                            "xperfmonger-20261203.pgr", "perfmonger-20261203.pgr.zst.tmp",
                            "perfmonger-20261203-2.pgr"})
    CHECK_FALSE(ParseRotatedName(other));
}

TEST_CASE("a period ends at the next local midnight or hour") {
  UtcZone utc;
  CHECK(NextPeriodStart(RotateEvery::kDay, kLateDec3) == kLateDec3 + kSec);
  CHECK(NextPeriodStart(RotateEvery::kDay, kLateDec3 + kSec) == kLateDec3 + kSec + 86400 * kSec);
  CHECK(NextPeriodStart(RotateEvery::kHour, kLateDec3 - 1800 * kSec) == kLateDec3 + kSec);
  CHECK(NextPeriodStart(RotateEvery::kSize, kLateDec3) == INT64_MAX);
  setenv("TZ", "Asia/Kolkata", 1);  // +05:30: 05:29:59 on Dec 4; midnight 18:30 UTC
  tzset();
  CHECK(NextPeriodStart(RotateEvery::kDay, kLateDec3) ==
        kLateDec3 + kSec + (18 * 3600 + 1800) * kSec);
  CHECK(NextPeriodStart(RotateEvery::kHour, kLateDec3) == kLateDec3 + kSec + 1800 * kSec);
  setenv("TZ", "UTC", 1);
  tzset();
}

TEST_CASE("--rotate and the test clock take what they document, nothing else") {
  CHECK(ParseRotate("daily")->every == RotateEvery::kDay);
  CHECK(ParseRotate("hourly")->every == RotateEvery::kHour);
  CHECK(ParseRotate("64M")->size_bytes == 64u << 20);
  CHECK(ParseSize("500k") == 500u << 10);
  CHECK(ParseSize("10") == 10u);
  for (const char* bad : {"", "weekly", "0", "5x", "-1M", "M"}) CHECK_FALSE(ParseRotate(bad));
  CHECK(ParseTestClock("1796342399.5:86400")->speed == 86400);
  CHECK(ParseTestClock("1796342399.5")->start_ns == 1796342399500000000);
  for (const char* bad : {"", "x", "1:0", "1:", "1:2x", "-5"}) CHECK_FALSE(ParseTestClock(bad));
}

TEST_CASE("retention deletes only the recorder's own expired files") {
  UtcZone utc;
  std::string dir = std::filesystem::temp_directory_path() / "pm-retention-XXXXXX";
  REQUIRE(mkdtemp(dir.data()));
  auto make = [&](const std::string& name, size_t bytes) {
    std::ofstream(dir + "/" + name) << std::string(bytes, 'x');
  };
  make("perfmonger-20261201.pgr.zst", 100);
  make("perfmonger-20261202.pgr.zst", 100);
  make("perfmonger-20261203.pgr.zst", 100);
  make("notes.txt", 10);
  REQUIRE(symlink("notes.txt", (dir + "/perfmonger-20261130.pgr.zst").c_str()) == 0);
  REQUIRE(mkdir((dir + "/perfmonger-20261129.pgr").c_str(), 0755) == 0);
  CHECK(ListOwnFiles(dir).size() == 3);

  RotatePolicy by_age{.every = RotateEvery::kDay, .keep_ns = 86400 * kSec};
  // Dec 1's data ends at Dec 2 00:00, more than a day before now.
  auto deleted = ApplyRetention(dir, by_age, kLateDec3, "perfmonger-20261203.pgr.zst");
  CHECK(deleted == std::vector<std::string>{"perfmonger-20261201.pgr.zst"});

  RotatePolicy by_size{.every = RotateEvery::kDay, .keep_bytes = 150};
  deleted = ApplyRetention(dir, by_size, kLateDec3, "perfmonger-20261203.pgr.zst");
  CHECK(deleted == std::vector<std::string>{"perfmonger-20261202.pgr.zst"});
  // The current file stays, however small the limit.
  RotatePolicy tiny{.every = RotateEvery::kDay, .keep_bytes = 1};
  CHECK(ApplyRetention(dir, tiny, kLateDec3, "perfmonger-20261203.pgr.zst").empty());
  CHECK(std::filesystem::exists(dir + "/notes.txt"));
  CHECK(std::filesystem::is_symlink(dir + "/perfmonger-20261130.pgr.zst"));
  CHECK(std::filesystem::is_directory(dir + "/perfmonger-20261129.pgr"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace pm
