// record's command line: PerfMonger's boolean syntax, options that only
// mean something with another, devices and durations as PerfMonger takes
// them, and the background child's arguments.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "test/tools/args_util.hh"
#include "tools/record/record_args.hh"

namespace pm::test {
namespace {

RecordArgs Parse(std::vector<std::string> words) {
  words.insert(words.begin(), "record");
  Argv argv(std::move(words));
  return ParseRecordArgs(argv.argc(), argv.argv());
}

std::string UsageErrorOf(std::vector<std::string> words) {
  try {
    Parse(std::move(words));
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST_CASE("record: --FLAG=true|false for the collector switches") {
  struct Row { std::vector<std::string> words; bool net, intr; };
  const Row rows[] = {
      {{}, true, false},
      {{"--no-net"}, false, false},
      {{"--no-net=true"}, false, false},
      {{"--no-net=false"}, true, false},           // how PerfMonger 1.0 turns network on
      {{"--no-net", "--no-net=false"}, true, false},
      {{"--no-net=0"}, true, false},
      {{"--no-net=F"}, true, false},
      {{"--record-intr"}, true, true},
      {{"--record-intr=false"}, true, false},
      {{"--record-intr=1", "--no-net=TRUE"}, false, true},
  };
  for (const Row& row : rows) {
    CAPTURE(row.words.size() ? row.words.back() : std::string("(none)"));
    RecordArgs a = Parse(row.words);
    CHECK(a.config.collectors.on("net") == row.net);
    CHECK(a.config.collectors.on("intr") == row.intr);
  }
}

TEST_CASE("record: --FLAG=false undoes the other flags too") {
  CHECK(Parse({"--no-gzip=false"}).config.output == "perfmonger.pgr.gz");
  CHECK(Parse({"--no-gzip=true"}).config.output == "perfmonger.pgr");
  CHECK_FALSE(Parse({"--background=false"}).background);
  CHECK(Parse({"--help=true"}).help);
  CHECK(UsageErrorOf({"--no-net=maybe"}).find("true or false") != std::string::npos);
  CHECK(UsageErrorOf({"--no-net="}).find("true or false") != std::string::npos);
  // A value option does not take a flag's '=false' meaning.
  CHECK(UsageErrorOf({"--interval=false"}).find("not a duration") != std::string::npos);
}

TEST_CASE("record: options that need their mode are usage errors") {
  struct Row { std::vector<std::string> words; std::string names; };
  const Row refused[] = {
      {{"--kill-timeout", "3s"}, "--kill"},
      {{"--kill-timeout=3s", "--kill=false"}, "--kill"},
      {{"--ready-timeout", "1s"}, "--background"},
      {{"--log", "/tmp/x.log"}, "--background"},
      {{"--log=/tmp/x.log", "--status"}, "--background"},
  };
  for (const Row& row : refused) {
    CAPTURE(row.words[0]);
    std::string error = UsageErrorOf(row.words);
    CHECK(error.find(row.names) != std::string::npos);
    CHECK(error != "(accepted)");
  }
  CHECK(Parse({"--kill", "--kill-timeout", "3s"}).kill_timeout_ns == 3'000'000'000);
  RecordArgs bg = Parse({"--background", "--ready-timeout", "1m30s", "--log", "x.log"});
  CHECK(bg.ready_timeout_ns == 90'000'000'000);
  CHECK(bg.log_path == "x.log");
}

TEST_CASE("record: -d takes device paths as PerfMonger does") {
  CHECK(Parse({"-d", "/dev/vda"}).config.collectors.disks == std::vector<std::string>{"vda"});
  CHECK(Parse({"-d", "/dev/vda,sdb", "--disk=/dev/cciss/c0d0"}).config.collectors.disks ==
        std::vector<std::string>{"vda", "sdb", "cciss/c0d0"});
}

TEST_CASE("record: durations in Go's syntax, and the too large named as such") {
  RecordArgs a = Parse({"-i", "1m0.5s", "-t", "1h30m", "-s", "0.25"});
  CHECK(a.config.interval_ns == 60'500'000'000);
  CHECK(a.config.timeout_ns == 5'400'000'000'000);
  CHECK(a.config.start_delay_ns == 250'000'000);
  std::string too_large = UsageErrorOf({"-i", "10000000000"});
  CHECK(too_large.find("too large") != std::string::npos);
  CHECK(too_large.find("not a duration") == std::string::npos);
  CHECK(UsageErrorOf({"-t", "1h30"}).find("not a duration") != std::string::npos);
}

TEST_CASE("record: the background child gets the user's recording options") {
  RecordArgs a = Parse({"--background", "-i", "500ms", "--no-net", "--meta", "q=a=b",
                        "-l", "rel.pgr", "--ready-timeout=2s", "-d", "/dev/vda",
                        "--record-intr=false", "--log", "l.txt"});
  std::vector<std::string> child = ChildArgs(a, "/abs/rel.pgr");
  CHECK(child == std::vector<std::string>{"record", "--background-child", "--interval=500ms",
                                          "--no-net", "--meta=q=a=b", "--disk=/dev/vda",
                                          "--record-intr=false", "--logfile=/abs/rel.pgr"});
  // Read back by the child, it is the same recording.
  child.push_back("--ready-fd=3");
  child.erase(child.begin());
  RecordArgs back = Parse(child);
  CHECK(back.config.session);
  CHECK(back.config.output == "/abs/rel.pgr");
  CHECK(back.config.interval_ns == a.config.interval_ns);
  CHECK(back.config.collectors.enabled == a.config.collectors.enabled);
  CHECK(back.config.collectors.disks == a.config.collectors.disks);
  CHECK(back.config.meta_args == a.config.meta_args);
}

TEST_CASE("record: --format-version: 2 by default, 1 on request, nothing else") {
  CHECK(Parse({}).config.format_version == 2);
  CHECK(Parse({"--format-version", "1"}).config.format_version == 1);
  CHECK(Parse({"--format-version=2"}).config.format_version == 2);
  for (const char* bad : {"3", "0", "2x", ""}) {
    CAPTURE(bad);
    CHECK(UsageErrorOf({"--format-version", bad}).find("write 1 or 2") != std::string::npos);
  }
}

TEST_CASE("record: a background child records in the format asked for") {
  RecordArgs a = Parse({"--background", "--format-version", "1"});
  std::vector<std::string> child = ChildArgs(a, "/abs/x.pgr");
  CHECK(std::find(child.begin(), child.end(), "--format-version=1") != child.end());
  child.push_back("--ready-fd=3");
  child.erase(child.begin());
  CHECK(Parse(child).config.format_version == 1);
}

}  // namespace
}  // namespace pm::test
