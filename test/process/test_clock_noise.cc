// The clock warning and the Clock: block only where times of different
// hosts meet (issue 49.5): a lone recording's summary and play say
// nothing of a clock that is not synchronised (every VM's); summary
// --all, and exports labelled for a store of many hosts (OpenMetrics with
// --instance or --label, CSV with a host column) do.
#include <doctest/doctest.h>

#include <string>

#include "test/process/fake_proc.hh"
#include "test/process/recording.hh"
#include "test/process/spawn.hh"

namespace pm::test {
namespace {

constexpr char kWarning[] = "may not line up with another host's";

void Replace(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// A real recording of this machine (plain NDJSON), its clock made
// unsynchronised whatever this machine's is, its header naming `host`.
std::string UnsyncedRecording(const TempDir& dir, const std::string& host) {
  std::string path = dir / (host + ".pgr");
  CommandSession s({"record", "-l", path, "-i", "3600"});
  s.ReadReadyLine();
  s.CloseStop();
  REQUIRE(s.Wait().code == 0);
  std::string bytes = ReadFileBytes(path);
  Replace(bytes, "\"synced\":true", "\"synced\":false");
  size_t at = bytes.find("\"host\":\"");
  REQUIRE(at != std::string::npos);
  at += 8;
  bytes.replace(at, bytes.find('"', at) - at, host);
  WriteFile(path, bytes);
  return path;
}

}  // namespace

TEST_CASE("clock: no warning or Clock block for a lone recording; both where hosts meet") {
  TempDir dir;
  std::string a = UnsyncedRecording(dir, "db1"), b = UnsyncedRecording(dir, "db2");
  SUBCASE("a lone recording: summary, play and its exports say nothing of the clock") {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"summary", "--no-pager", a},
             {"play", a},
             {"play", "--format", "csv", a},
             {"play", "--format", "openmetrics", a}}) {
      CAPTURE(args[1]);
      ExitResult r = Run(args);
      REQUIRE(r.code == 0);
      CHECK(r.err.find(kWarning) == std::string::npos);
      CHECK(r.out.find("Clock:") == std::string::npos);
    }
  }
  SUBCASE("summary --all: the warning and the block") {
    ExitResult r = Run({"summary", "--all", "--no-pager", a});
    REQUIRE(r.code == 0);
    CHECK(r.err.find("warning: " + a + ": the clock was not synchronised at the start") !=
          std::string::npos);
    CHECK(r.out.find("\nClock:\n  at start: not synchronised") != std::string::npos);
  }
  SUBCASE("two hosts' exports, labelled by host: each warns") {
    for (const std::string& path : {a, b}) {
      CAPTURE(path);
      ExitResult csv = Run({"play", "--format", "csv", "--columns", "host", path});
      ExitResult om = Run({"play", "--format", "openmetrics", "--label", "rack=r1", path});
      ExitResult instance = Run({"play", "--format", "openmetrics", "--instance", "x", path});
      for (const ExitResult* r : {&csv, &om, &instance}) {
        REQUIRE(r->code == 0);
        CHECK(r->err.find("warning: " + path + ": the clock was not synchronised") !=
              std::string::npos);
      }
    }
  }
}

}  // namespace pm::test
