#include <doctest/doctest.h>

#include "common/error.hh"
#include "daemon/collect/parse_diskstats.hh"

using pm::DiskCounters;
using pm::DiskStats;
using pm::FormatError;
using pm::ParseDiskstats;

TEST_CASE("ParseDiskstats: the formats of kernels through the ages") {
  DiskStats d;
  ParseDiskstats(
      // 5.5+: 17 numbers (discard and flush counters after the 11)
      " 254       0 vda 29486 6781 2265906 11163 2498 5654 393152 1278 0 4924 12690 3850 38 "
      "102296 239 264 9\n"
      // 4.18-5.4: 15 numbers
      "   8      16 sdb 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"
      // 2.6.25-4.17: 11 numbers
      " 104       0 cciss/c0d0 10 0 80 5 20 0 160 9 1 12 14\n"
      // < 2.6.25 partitions: rd_ios rd_sectors wr_ios wr_sectors
      "   3    1 hda1 35486 283888 4321 34568\n"
      "\n"
      "259 65536 nvme0n1p1 1 2 3 4 5 6 7 8 9 10 11",
      d);
  REQUIRE(d.rows.size() == 5);
  CHECK(d.rows[0].major == 254);
  CHECK(d.rows[0].minor == 0);
  CHECK(d.rows[0].name == "vda");
  CHECK(d.rows[0].counters == DiskCounters{29486, 6781, 2265906, 11163, 2498, 5654, 393152,
                                           1278, 0, 4924, 12690, 3850, 38, 102296, 239, 264, 9});
  CHECK(d.rows[0].fields == 17);
  CHECK(d.rows[1].name == "sdb");
  CHECK(d.rows[1].counters == DiskCounters{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15});
  CHECK(d.rows[1].fields == 15);
  CHECK(d.rows[2].fields == 11);
  CHECK(d.rows[3].fields == 11);
  CHECK(d.rows[2].name == "cciss/c0d0");
  CHECK(d.rows[2].reads() == 10);
  CHECK(d.rows[2].writes() == 20);
  CHECK(d.rows[3].name == "hda1");
  CHECK(d.rows[3].counters == DiskCounters{35486, 0, 283888, 0, 4321, 0, 34568, 0, 0, 0, 0});
  CHECK(d.rows[4].minor == 65536);
  CHECK(d.rows[4].name == "nvme0n1p1");
}

TEST_CASE("ParseDiskstats: a later kernel's extra columns are skipped") {
  DiskStats d;
  ParseDiskstats("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 x\n", d);
  REQUIRE(d.rows.size() == 1);
  CHECK(d.rows[0].counters ==
        DiskCounters{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17});
  CHECK(d.rows[0].fields == 17);
  // 12 to 14 (no kernel printed them): what is there, the rest 0.
  ParseDiskstats("8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13\n", d);
  CHECK(d.rows[0].counters == DiskCounters{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13});
  CHECK(d.rows[0].fields == 13);
}

TEST_CASE("ParseDiskstats: reuse drops rows that are gone") {
  DiskStats d;
  ParseDiskstats("8 0 sda 1 2 3 4 5 6 7 8 9 10 11\n8 16 sdb 1 2 3 4 5 6 7 8 9 10 11\n", d);
  CHECK(d.rows.size() == 2);
  ParseDiskstats("8 16 sdb 1 2 3 4\n", d);
  REQUIRE(d.rows.size() == 1);
  CHECK(d.rows[0].name == "sdb");
  CHECK(d.rows[0].counters == DiskCounters{1, 0, 2, 0, 3, 0, 4, 0, 0, 0, 0});
  ParseDiskstats("", d);
  CHECK(d.rows.empty());
}

TEST_CASE("ParseDiskstats: malformed lines are FormatErrors naming the line") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"8 0 sda 1 2 3 4\n8 1 sda1 1 2 3 4 5 6 7\n",
       "/proc/diskstats:2: device line has 7 counters; expected 4 or at least 11"},
      {"8 0 sda 1 2 3\n", "/proc/diskstats:1: device line has 3 counters; expected 4 or at least 11"},
      {"8 0 sda\n", "/proc/diskstats:1: device line has 0 counters; expected 4 or at least 11"},
      {"8 0\n", "/proc/diskstats:1: missing device name"},
      {"8 x sda 1 2 3 4\n",
       "/proc/diskstats:1: expected 'major minor name' at the start of the line"},
      {"sda 1 2 3 4\n",
       "/proc/diskstats:1: expected 'major minor name' at the start of the line"},
      {"\n\n8 0 sda 1 2 three 4\n", "/proc/diskstats:3: disk counters must be unsigned integers"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    DiskStats d;
    CHECK_THROWS_WITH_AS(ParseDiskstats(c.text, d), c.error, FormatError);
  }
}
