// The load parsers: /proc/loadavg as kernels print it, /proc/stat's
// procs_* lines, and malformed text.
#include <doctest/doctest.h>

#include <string>

#include "common/error.hh"
#include "daemon/collect/parse_loadavg.hh"

using pm::FormatError;
using pm::LoadValues;

TEST_CASE("ParseLoadavg: averages ×100 exactly, runnable/threads") {
  LoadValues v{};
  pm::ParseLoadavg("0.52 10.08 123.40 2/1234 5678\n", v);
  CHECK(v[0] == 52);
  CHECK(v[1] == 1008);
  CHECK(v[2] == 12340);
  CHECK(v[3] == 2);
  CHECK(v[4] == 1234);
  pm::ParseLoadavg("1 2.5 0.00 0/1 1", v);  // fewer decimals read as written
  CHECK(v[0] == 100);
  CHECK(v[1] == 250);
  CHECK(v[2] == 0);
}

TEST_CASE("ParseLoadavg: malformed text names the file") {
  LoadValues v{};
  for (const char* text : {"", "0.52 0.58\n", "0.52 0.58 x 2/3 4\n", "0.5a 1 1 2/3 4",
                           "0.52 0.58 0.59 2 5678\n", "0.52 0.58 0.59 2/ 5678\n",
                           "-1.00 0.58 0.59 2/3 4\n"}) {
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(pm::ParseLoadavg(text, v, "/x/loadavg"),
                         doctest::Contains("/x/loadavg:1: "), FormatError);
  }
}

TEST_CASE("ParseProcsLines: procs_running and procs_blocked, 0 when absent") {
  LoadValues v{};
  pm::ParseProcsLines("cpu  1 2 3 4\nctxt 99\nprocs_running 3\nprocs_blocked 1\nsoftirq 5\n", v);
  CHECK(v[5] == 3);
  CHECK(v[6] == 1);
  pm::ParseProcsLines("cpu  1 2 3 4\nprocs_running 7\n", v);  // 2.4 kernels: no procs_blocked
  CHECK(v[5] == 7);
  CHECK(v[6] == 0);
  CHECK_THROWS_AS(pm::ParseProcsLines("procs_blocked x\n", v), FormatError);
}
