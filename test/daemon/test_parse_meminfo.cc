#include <doctest/doctest.h>

#include <algorithm>

#include "common/error.hh"
#include "daemon/collect/parse_meminfo.hh"
#include "test/daemon/test_util.hh"
#include "proto/columns/mem.hh"

using pm::FormatError;
using pm::MemInfo;
using pm::ParseMeminfo;

namespace {
uint64_t Value(const MemInfo& m, std::string_view key) {
  auto it = std::find(pm::kMemFields.begin(), pm::kMemFields.end(), key);
  REQUIRE(it != pm::kMemFields.end());
  return m.values[static_cast<size_t>(it - pm::kMemFields.begin())];
}
}  // namespace

TEST_CASE("ParseMeminfo: a modern file, every recorded key in order") {
  MemInfo m;
  ParseMeminfo(pm::test::ReadFile(pm::test::DataDir() / "proc-small/proc/meminfo"), m);
  // The fake file gives the i-th recorded key the value 1000 + i, others 7.
  for (size_t i = 0; i < m.values.size(); ++i) {
    CAPTURE(pm::kMemFields[i]);
    CHECK(m.values[i] == 1000 + i);
  }
}

TEST_CASE("ParseMeminfo: keys missing from an old kernel's file are 0") {
  MemInfo m;
  ParseMeminfo(pm::test::ReadFile(pm::test::DataDir() / "proc-old/proc/meminfo"), m);
  CHECK(Value(m, "MemTotal") == 1034680);
  CHECK(Value(m, "MemAvailable") == 0);
  CHECK(Value(m, "Shmem") == 0);
  CHECK(Value(m, "SReclaimable") == 0);
  CHECK(Value(m, "HugePages_Rsvd") == 0);
  CHECK(Value(m, "Committed_AS") == 462352);
  CHECK(Value(m, "Hugepagesize") == 2048);
}

TEST_CASE("ParseMeminfo: units, odd spacing, unknown keys, reuse") {
  MemInfo m;
  ParseMeminfo(
      "HugePages_Total:   12\n"
      "Weird(key): not a number at all\n"
      "MemFree:\t5 kB\n"
      "\n"
      "MemTotal:       9",
      m);
  CHECK(Value(m, "HugePages_Total") == 12);
  CHECK(Value(m, "MemFree") == 5);
  CHECK(Value(m, "MemTotal") == 9);
  ParseMeminfo("MemTotal: 3 kB\n", m);
  CHECK(Value(m, "MemTotal") == 3);
  CHECK(Value(m, "MemFree") == 0);
  CHECK(Value(m, "HugePages_Total") == 0);
}

TEST_CASE("ParseMeminfo: malformed lines are FormatErrors naming the line") {
  struct Case {
    const char* text;
    const char* error;
  };
  const Case cases[] = {
      {"MemTotal: lots kB\n", "/proc/meminfo:1: expected an unsigned integer after 'MemTotal:'"},
      {"MemTotal: 1 kB\nCached:\n", "/proc/meminfo:2: expected an unsigned integer after 'Cached:'"},
      {"MemTotal: 1 kB\nMemFree 2 kB\n", "/proc/meminfo:2: expected 'Key: value'"},
      {"Dirty: -1 kB\n", "/proc/meminfo:1: expected an unsigned integer after 'Dirty:'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    MemInfo m;
    CHECK_THROWS_WITH_AS(ParseMeminfo(c.text, m), c.error, FormatError);
  }
}

TEST_CASE("meminfo: a reused struct follows a changed layout") {
  pm::MemInfo info;
  pm::ParseMeminfo("MemTotal: 10 kB\nZswap: 1 kB\nMemFree: 5 kB\n", info);
  CHECK(info.values[0] == 10);
  CHECK(info.values[1] == 5);
  // Same keys, new values: the remembered layout serves.
  pm::ParseMeminfo("MemTotal: 11 kB\nZswap: 2 kB\nMemFree: 6 kB\n", info);
  CHECK(info.values[0] == 11);
  CHECK(info.values[1] == 6);
  // A recorded key where an unrecorded one was, and a key gone.
  pm::ParseMeminfo("MemTotal: 12 kB\nBuffers: 3 kB\n", info);
  CHECK(info.values[0] == 12);
  CHECK(info.values[1] == 0);
  CHECK(info.values[3] == 3);
}
