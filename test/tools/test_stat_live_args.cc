// stat and live take record's options from record's table, plus their
// own: where the options end and who owns an option.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "test/tools/args_util.hh"
#include "tools/live/live_cli.hh"
#include "tools/record/record_args.hh"
#include "tools/record/stat_cli.hh"

using pm::test::Argv;

TEST_CASE("stat: its own --json, record's options, then CMD after --") {
  Argv a({"stat", "--json", "-i", "0.1", "--", "sleep", "-1"});
  pm::StatArgs s = pm::ParseStatArgs(a.argc(), a.argv());
  CHECK(s.json);
  CHECK_FALSE(s.record.json);  // not record's --status --json
  CHECK(s.record.config.interval_ns == 100'000'000);
  CHECK(s.command == std::vector<std::string>{"sleep", "-1"});
}

TEST_CASE("stat: options end at the first operand even without --") {
  Argv a({"stat", "-l", "x.pgr", "sh", "-c", "exit 3"});
  pm::StatArgs s = pm::ParseStatArgs(a.argc(), a.argv());
  CHECK(s.record.config.output == "x.pgr");
  CHECK(s.command == std::vector<std::string>{"sh", "-c", "exit 3"});
}

TEST_CASE("stat: record's options that cannot apply are not in its table") {
  for (const char* option : {"--background", "--status", "--kill", "-t"}) {
    CAPTURE(option);
    Argv a({"stat", option, "--", "true"});
    CHECK_THROWS_WITH_AS(pm::ParseStatArgs(a.argc(), a.argv()),
                         ("unknown option: " + std::string(option) +
                          " (see perfmonger stat --help)").c_str(),
                         pm::UsageError);
  }
}

TEST_CASE("live: its short option among record's, and no operands") {
  Argv a({"live", "-ci", "0.5", "-t", "2"});
  pm::LiveArgs l = pm::ParseLiveArgs(a.argc(), a.argv());
  CHECK(l.color == pm::ColorWhen::kAlways);
  CHECK_FALSE(l.pretty);
  CHECK(l.record.config.interval_ns == 500'000'000);
  CHECK(l.record.config.timeout_ns == 2'000'000'000);
  CHECK(l.record.config.no_file);  // no -l: nothing written

  Argv extra({"live", "now"});
  try {
    pm::ParseLiveArgs(extra.argc(), extra.argv());
    FAIL("an operand was accepted");
  } catch (const pm::UsageError& e) {
    CHECK(std::string(e.what()).find("'now'") != std::string::npos);
    CHECK(std::string(e.what()).find("perfmonger live --help") != std::string::npos);
  }
}

TEST_CASE("an unknown option names the command whose help to read") {
  Argv a({"stat", "--jsn", "--", "true"});
  CHECK_THROWS_WITH_AS(pm::ParseStatArgs(a.argc(), a.argv()),
                       "unknown option: --jsn (see perfmonger stat --help)", pm::UsageError);
}

TEST_CASE("live: --table, --json, --columns and --color=WHEN") {
  auto parse = [](std::vector<std::string> args) {
    args.insert(args.begin(), "live");
    Argv a(args);
    return pm::ParseLiveArgs(a.argc(), a.argv());
  };
  auto refused = [&](std::vector<std::string> args, std::string_view fix) {
    CAPTURE(args.back());
    try {
      parse(args);
      FAIL("accepted");
    } catch (const pm::UsageError& e) {
      CHECK(std::string(e.what()).find(fix) != std::string::npos);
    }
  };
  // The suite's stdout is no terminal: JSON unless --table, which records the load too.
  pm::LiveArgs json = parse({});
  CHECK_FALSE(json.table);
  CHECK_FALSE(json.record.config.collectors.on("load"));
  pm::LiveArgs table = parse({"--table", "--columns", "cpu:1,disk:vda,net:eth0,mem"});
  CHECK(table.table);
  CHECK(table.record.config.collectors.on("load"));
  CHECK(table.columns == "cpu:1,disk:vda,net:eth0,mem");
  CHECK_FALSE(parse({"--table", "--record-load=false"}).record.config.collectors.on("load"));
  CHECK(parse({"--color=never"}).color == pm::ColorWhen::kNever);
  CHECK(parse({"--color=auto"}).color == pm::ColorWhen::kAuto);
  CHECK(parse({"--color=false"}).color == pm::ColorWhen::kNever);
  CHECK(parse({}).color == pm::ColorWhen::kUnset);
  refused({"--color=sometimes"}, "always auto never");
  refused({"--table", "--json"}, "not with --table");
  refused({"--table", "--pretty"}, "not with --table");
  refused({"--json", "--columns", "cpu"}, "not with --json");
  refused({"--columns", "cpu,bogus"}, "any of cpu, intr, disk, net, mem");
  // --columns intr: interrupts recorded for it, unless said otherwise.
  CHECK(parse({"--table", "--columns", "cpu,intr"}).record.config.collectors.on("intr"));
  CHECK_FALSE(parse({"--table", "--columns", "cpu"}).record.config.collectors.on("intr"));
  CHECK_FALSE(parse({"--table", "--columns", "intr", "--record-intr=false"})
                  .record.config.collectors.on("intr"));
  refused({"--columns", "disk:"}, "disk:NAME");
}
