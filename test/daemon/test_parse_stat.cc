#include <doctest/doctest.h>

#include "common/error.hh"
#include "daemon/collect/parse_stat.hh"
#include "daemon/collect/proc_file.hh"
#include "test/daemon/test_util.hh"

using pm::CpuTimes;
using pm::FormatError;
using pm::ParseStat;
using pm::StatSnapshot;

TEST_CASE("ParseStat: a modern /proc/stat") {
  StatSnapshot s;
  ParseStat(
      "cpu  300 10 200 5000 40 5 6 7 8 9\n"
      "cpu0 100 5 100 2500 20 2 3 3 4 4\n"
      "cpu1 200 5 100 2500 20 3 3 4 4 5\n"
      "intr 12345 0 0 1\n"
      "ctxt 987654\n"
      "btime 1700000000\n"
      "processes 4321\n"
      "procs_running 2\n",
      s);
  CHECK(s.has_total);
  CHECK(s.total == CpuTimes{300, 10, 200, 5000, 40, 5, 6, 7, 8, 9});
  REQUIRE(s.cores.size() == 2);
  CHECK(s.cores[0].id == 0);
  CHECK(s.cores[1].id == 1);
  CHECK(s.cores[1].times == CpuTimes{200, 5, 100, 2500, 20, 3, 3, 4, 4, 5});
  CHECK(s.ctxt == 987654);
  CHECK(s.processes == 4321);
}

TEST_CASE("ParseStat: old kernels print fewer columns; the missing ones are 0") {
  struct Case {
    const char* line;
    CpuTimes want;
  };
  const Case cases[] = {
      {"cpu 1 2 3 4 5 6 7 8 9\n", {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}},       // < 2.6.33
      {"cpu 1 2 3 4 5 6 7 8\n", {1, 2, 3, 4, 5, 6, 7, 8, 0, 0}},          // < 2.6.24
      {"cpu 1 2 3 4 5 6 7\n", {1, 2, 3, 4, 5, 6, 7, 0, 0, 0}},            // < 2.6.11
      {"cpu 1 2 3 4\n", {1, 2, 3, 4, 0, 0, 0, 0, 0, 0}},                  // 2.4
      {"cpu 1 2 3 4 5 6 7 8 9 10 11 12\n", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},  // future
      {"cpu\t1 2  3\t 4 5 6 7 8 9 10   \n", {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.line);
    StatSnapshot s;
    ParseStat(c.line, s);
    CHECK(s.total == c.want);
  }
}

TEST_CASE("ParseStat: missing lines and reuse of the snapshot") {
  StatSnapshot s;
  ParseStat("cpu0 1 1 1 1\ncpu1 1 1 1 1\ncpu2 1 1 1 1\nctxt 9\n", s);
  CHECK(s.cores.size() == 3);
  ParseStat("cpu 1 1 1 1\ncpu3 2 2 2 2", s);  // no final newline either
  CHECK(s.has_total);
  REQUIRE(s.cores.size() == 1);
  CHECK(s.cores[0].id == 3);
  CHECK(s.cores[0].times == CpuTimes{2, 2, 2, 2, 0, 0, 0, 0, 0, 0});
  CHECK(s.ctxt == 0);
  CHECK(s.processes == 0);
  ParseStat("", s);
  CHECK_FALSE(s.has_total);
  CHECK(s.cores.empty());
}

TEST_CASE("ParseStat: malformed lines are FormatErrors naming the line") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"cpu 1 2 3 4\ncpu0 1 2 3\n", "/proc/stat:2: cpu line has 3 numbers; expected at least 4"},
      {"cpu 1 2 x 4 5\n", "/proc/stat:1: cpu times must be unsigned integers"},
      {"cpu 1 2 -3 4 5\n", "/proc/stat:1: cpu times must be unsigned integers"},
      {"cpu 1 2 3 4 99999999999999999999\n", "/proc/stat:1: cpu times must be unsigned integers"},
      {"cpu 1 2 3 4\ncpu1a 1 2 3 4\n", "/proc/stat:2: bad cpu name 'cpu1a'"},
      {"x\ny\nctxt lots\n", "/proc/stat:3: expected an unsigned integer"},
      {"processes\n", "/proc/stat:1: expected an unsigned integer"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    StatSnapshot s;
    CHECK_THROWS_WITH_AS(ParseStat(c.text, s), c.error, FormatError);
  }
  StatSnapshot s;
  CHECK_THROWS_WITH_AS(ParseStat("cpu 1\n", s, "/fake/stat"),
                       "/fake/stat:1: cpu line has 1 numbers; expected at least 4", FormatError);
}

TEST_CASE("ParseStat: a 64-CPU machine") {
  auto root = pm::test::OpenDir(pm::test::DataDir() / "proc-64cpu");
  pm::ProcFile file(root.Get(), "proc/stat");
  StatSnapshot s;
  ParseStat(file.Read(), s, file.name());
  REQUIRE(s.cores.size() == 64);
  CpuTimes sum{};
  for (size_t i = 0; i < s.cores.size(); ++i) {
    CHECK(s.cores[i].id == static_cast<int>(i));
    for (size_t k = 0; k < sum.size(); ++k) sum[k] += s.cores[i].times[k];
  }
  CHECK(s.total == sum);  // the file was generated so that the lines add up
  CHECK(s.cores[63].times == CpuTimes{71114, 82035, 39102, 20288, 47676, 79070, 51245,
                                      60165, 0, 0});
  CHECK(s.ctxt == 1234567890);
  CHECK(s.processes == 98765);
}
