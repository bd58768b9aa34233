// The pressure and process parsers as tables: the kernels' real layouts,
// what older kernels leave out, and malformed lines.
#include <doctest/doctest.h>

#include <string>

#include "common/error.hh"
#include "daemon/collect/parse_pressure.hh"
#include "daemon/collect/parse_process.hh"

using pm::FormatError;

TEST_CASE("ParsePressure: real layouts") {
  struct Case {
    const char* name;
    const char* text;
    bool has_some, has_full;
    uint64_t some, full;
  };
  const Case cases[] = {
      {"cpu, 6.x (full line of zeros)",
       "some avg10=43.07 avg60=34.72 avg300=58.12 total=4603612142\n"
       "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
       true, true, 4603612142, 0},
      {"cpu before 5.13: no full line",
       "some avg10=0.00 avg60=0.10 avg300=0.05 total=123456\n", true, false, 123456, 0},
      {"irq: only full", "full avg10=0.00 avg60=0.00 avg300=0.00 total=98765\n", false, true,
       0, 98765},
      {"io", "some avg10=0.00 avg60=0.43 avg300=0.72 total=75762591\n"
             "full avg10=0.00 avg60=0.07 avg300=0.30 total=45264010\n",
       true, true, 75762591, 45264010},
      {"a later kernel's extra line is skipped, no final newline",
       "some avg10=1.00 avg60=0 avg300=0 total=5\nboth total=9\nfull total=7", true, true, 5, 7},
      {"empty file", "", false, false, 0, 0},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    pm::PressureLines p;
    p.has_some = p.has_full = true;  // a reused struct starts over
    pm::ParsePressure(c.text, p);
    CHECK(p.has_some == c.has_some);
    CHECK(p.has_full == c.has_full);
    CHECK(p.some_us == c.some);
    CHECK(p.full_us == c.full);
  }
}

TEST_CASE("ParsePressure: a line without a numeric total= is an error naming it") {
  struct Case { const char* text; const char* error; };
  const Case cases[] = {
      {"some avg10=0.00 avg60=0.00\n", "/proc/pressure/cpu:1: expected total=N on the 'some' line"},
      {"some total=1\nfull total=x\n", "/proc/pressure/cpu:2: expected total=N on the 'full' line"},
      {"full total=-3\n", "/proc/pressure/cpu:1: expected total=N on the 'full' line"},
      {"some total=12abc\n", "/proc/pressure/cpu:1: expected total=N on the 'some' line"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    pm::PressureLines p;
    CHECK_THROWS_WITH_AS(pm::ParsePressure(c.text, p), c.error, FormatError);
  }
}

TEST_CASE("ParseProcStat: fields counted from comm's last ')'") {
  struct Case {
    const char* name;
    std::string text;
    pm::ProcStat want;
  };
  const Case cases[] = {
      {"a real line (dd)",
       "5495 (dd) R 5494 5494 24929 34816 5494 4194304 258 0 0 0 3 7 0 0 20 0 1 0 "
       "1165632 5627904 675 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
       {3, 7, 0, 0, 1, 675}},
      {"comm with spaces and parentheses",
       "42 (a ) b (c)) S 1 42 42 0 -1 4194560 220 0 0 0 11 22 33 44 20 0 4 0 100 200 300\n",
       {11, 22, 33, 44, 4, 300}},
      {"comm with newlines (prctl PR_SET_NAME takes any bytes)",
       "42 (a\n) b\n(c)) S 1 42 42 0 -1 4194560 220 0 0 0 11 22 33 44 20 0 4 0 100 200 300\n",
       {11, 22, 33, 44, 4, 300}},
      {"negative cutime, cstime read as 0",
       "7 (x) S 1 7 7 0 -1 0 0 0 0 0 5 6 -1 -2 20 0 2 0 1 2 3\n", {5, 6, 0, 0, 2, 3}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    pm::ProcStat s;
    pm::ParseProcStat(c.text, s);
    CHECK(s.utime == c.want.utime);
    CHECK(s.stime == c.want.stime);
    CHECK(s.cutime == c.want.cutime);
    CHECK(s.cstime == c.want.cstime);
    CHECK(s.num_threads == c.want.num_threads);
    CHECK(s.rss_pages == c.want.rss_pages);
  }
}

TEST_CASE("ParseProcStat: the parent, the page faults and the start time (issue 47)") {
  pm::ProcStat s;
  pm::ParseProcStat(
      "5495 (d d) R 5494 5494 24929 34816 5494 4194304 258 1 9 2 3 7 0 0 20 0 1 0 "
      "1165632 5627904 675 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n",
      s);
  CHECK(s.ppid == 5494);
  CHECK(s.minflt == 258);    // field 10, not cminflt (11)
  CHECK(s.majflt == 9);      // field 12, not cmajflt (13)
  CHECK(s.start_ticks == 1165632);
  CHECK(s.utime == 3);
}

TEST_CASE("ParseProcStat: malformed lines") {
  struct Case { const char* text; const char* error; };
  const Case cases[] = {
      {"42 dd R 1\n", "/proc/PID/stat:1: no '(comm)'"},
      {"42 (dd) R 1 1 1 0 -1 0 0 0 0 0 5 6\n", "/proc/PID/stat:1: fewer than 16 fields"},
      {"42 (dd) R 1 1 1 0 -1 0 0 0 0 0 x 6 0 0 20 0 1 0 1 2 3\n",
       "/proc/PID/stat:1: field 14 is not a number"},
      {"", "/proc/PID/stat:1: no '(comm)'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    pm::ProcStat s;
    CHECK_THROWS_WITH_AS(pm::ParseProcStat(c.text, s), c.error, FormatError);
  }
}

TEST_CASE("ProcStatComm: from the first '(' to the last ')'") {
  CHECK(pm::ProcStatComm("42 (sh (x)) S 1 2 3\n") == "sh (x)");
  CHECK(pm::ProcStatComm("7 (a b) R 1") == "a b");
  CHECK(pm::ProcStatComm("7 () R 1") == "");
  CHECK(pm::ProcStatComm("7 no parentheses") == "");
  CHECK(pm::ProcStatComm("7 )( R") == "");
  CHECK(pm::ProcStatComm("7 (a\nb)) R 1\n") == "a\nb)");
}

TEST_CASE("ParseSchedstat: run and wait ns; anything else is an error") {
  pm::Schedstat s;
  pm::ParseSchedstat("123456789 2345 6\n", s);
  CHECK(s.run_ns == 123456789);
  CHECK(s.wait_ns == 2345);
  CHECK(s.slices == 6);  // the timeslices: its context switches
  pm::ParseSchedstat("18446744073709551615 0\n", s);  // two fields are enough
  CHECK(s.run_ns == UINT64_MAX);
  CHECK(s.slices == 0);
  for (const char* bad : {"", "12\n", "x 1 2\n", "1 -2 3\n"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(pm::ParseSchedstat(bad, s),
                         "/proc/PID/schedstat:1: expected two numbers (run and wait ns)",
                         FormatError);
  }
}

TEST_CASE("ParseProcIo: the real layout, a missing key, a bad value") {
  pm::ProcIo io;
  pm::ParseProcIo(
      "rchar: 20978496\nwchar: 20971613\nsyscr: 30\nsyscw: 23\nread_bytes: 4096\n"
      "write_bytes: 20975616\ncancelled_write_bytes: 0\n",
      io);
  CHECK(io.rchar == 20978496);
  CHECK(io.wchar == 20971613);
  CHECK(io.syscr == 30);
  CHECK(io.syscw == 23);
  CHECK(io.read_bytes == 4096);
  CHECK(io.write_bytes == 20975616);
  pm::ParseProcIo("wchar: 5\n", io);  // a reused struct: the others are 0
  CHECK(io.wchar == 5);
  CHECK(io.rchar == 0);
  CHECK(io.write_bytes == 0);
  CHECK_THROWS_WITH_AS(pm::ParseProcIo("rchar: 1\nsyscr: lots\n", io),
                       "/proc/PID/io:2: expected an unsigned integer after 'syscr:'", FormatError);
}
