// `play --format` on the real binary: the options' mistakes, a recording
// cut short, a spool directory that cannot be written, corrupt data, and
// stdin. (The exports' content: test/playback/test_export_*.cc; their
// consumers, promtool, Prometheus and Python's csv: test_export.py.)
#include <doctest/doctest.h>

#include <fcntl.h>

#include <string>
#include <vector>

#include "common/io.hh"
#include "test/process/fake_proc.hh"

namespace pm::test {
namespace {

std::vector<FakeCounters> Steps(uint64_t n) {
  std::vector<FakeCounters> steps;
  for (uint64_t k = 0; k < n; ++k) steps.push_back(CountersAt(k));
  return steps;
}

ExitResult RunWith(std::vector<std::string> args, std::vector<std::string> env,
                   UniqueFd stdin_fd = {}) {
  SpawnOptions o;
  o.args = std::move(args);
  o.env = std::move(env);
  o.stdin_fd = std::move(stdin_fd);
  return Child(std::move(o)).Wait();
}

TEST_SUITE("readers") {

TEST_CASE("play --format: mistakes are one line naming the fix, exit 1") {
  struct Case {
    std::vector<std::string> args;
    const char* says;
  } cases[] = {
      {{"play", "--format", "xml", "x.pgr"}, "give json, csv, openmetrics, table or columns"},
      {{"play", "--instance", "db-1", "x.pgr"}, "add --format openmetrics"},
      {{"play", "--format", "csv", "--events", "x.pgr"}, "--events shapes JSON lines"},
      {{"play", "--format", "openmetrics", "--pretty", "x.pgr"}, "--pretty shapes JSON lines"},
      {{"play", "--format"}, "option needs a value: --format"},
      {{"play", "--job", "bench", "x.pgr"}, "--job labels OpenMetrics series"},
      {{"play", "--format", "csv", "--label", "a=b", "x.pgr"}, "add --format openmetrics"},
      {{"play", "--label", "rack", "x.pgr"}, "--label 'rack': give KEY=VALUE"},
      {{"play", "--label", "cpu=1", "x.pgr"}, "cpu: a label of the export's own series"},
      {{"play", "--label", "instance=db", "x.pgr"}, "give it with --instance"},
      {{"play", "--label", "9x=1", "x.pgr"}, "not a label name"},
      {{"play", "--label", "__name__=x", "x.pgr"}, "reserved to Prometheus"},
      {{"play", "--label", "rack=", "x.pgr"}, "give a value"},
      {{"play", "--label", "a=1", "--label", "a=2", "x.pgr"}, "a is given twice"},
      {{"play", "--columns", "host", "x.pgr"}, "add --format csv or --table"},
      {{"play", "--table", "--columns", "cpu,host", "x.pgr"}, "'host' has no columns"},
      {{"play", "--table", "--pretty", "x.pgr"}, "--pretty shapes JSON lines"},
      {{"play", "--format", "csv", "--color", "x.pgr"}, "--color colours JSON lines or the table"},
      {{"play", "--format", "csv", "--columns", "host,ip", "x.pgr"},
       "'ip' is none of host, run, phase"},
      {{"play", "--format", "csv", "--columns", "run,run", "x.pgr"}, "run is given twice"},
      {{"play", "--format", "csv", "--columns", "", "x.pgr"}, "'' is none of"},
      {{"play", "--format", "csv", "--columns", "host", "--run-key", "q", "x.pgr"},
       "add --columns with run"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.says);
    ExitResult r = Run(c.args);
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(SplitLines(r.err).size() == 1);
  }
}

TEST_CASE("play --format openmetrics|csv: cut short, from stdin, corrupt, no spool") {
  FakeProc fake(CountersAt(0));
  TempDir dir;
  std::string path = dir / "rec.pgr";
  // Version 1: its corrupt line ends the read (a v2 one is skipped).
  RecordFake(fake, path, Steps(6), {"--meta", "query_id=q42", "--format-version", "1"});
  std::string bytes = ReadFileBytes(path);

  ExitResult whole = Run({"play", "--format", "openmetrics", path});
  REQUIRE(whole.code == 0);
  CHECK(whole.out.ends_with("\n# EOF\n"));
  CHECK(whole.out.find("node_disk_read_bytes_total{device=\"vda\",") != std::string::npos);

  // Cut inside the fourth sample line: the samples before it, a warning.
  size_t cut = 0;
  for (int i = 0; i < 4; ++i) cut = bytes.find('\n', cut) + 1;
  WriteFile(dir / "cut.pgr", bytes.substr(0, cut + 20));
  for (const char* format : {"openmetrics", "csv"}) {
    CAPTURE(format);
    ExitResult r = Run({"play", "--format", format, dir / "cut.pgr"});
    CHECK(r.code == 0);
    CHECK(r.err.find("recording truncated after 3 samples") != std::string::npos);
    if (std::string(format) == "csv") CHECK(SplitLines(r.out).size() == 3);  // header + 2
    else CHECK(r.out.ends_with("\n# EOF\n"));
  }

  ExitResult piped = RunWith({"play", "--format", "openmetrics", "-"}, {},
                             OpenAt(AT_FDCWD, path, O_RDONLY));
  CHECK(piped.code == 0);
  CHECK(piped.out == whole.out);

  ExitResult nospool = RunWith({"play", "--format", "openmetrics", path},
                               {"TMPDIR=" + (dir / "missing")});
  CHECK(nospool.code == 1);
  CHECK(nospool.out.empty());
  CHECK(nospool.err.find("set TMPDIR to a writable directory") != std::string::npos);

  std::string corrupt = bytes;
  corrupt[bytes.find('\n', bytes.find('\n') + 1) + 3] = '#';
  WriteFile(dir / "bad.pgr", corrupt);
  ExitResult bad = Run({"play", "--format", "openmetrics", dir / "bad.pgr"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("bad.pgr") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace
}  // namespace pm::test
