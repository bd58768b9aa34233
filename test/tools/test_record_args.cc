// stat and live read record's options through record's table, plus their
// own: where the options end and who owns an option.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "tools/record_args.hh"

namespace {

struct Argv {
  explicit Argv(std::vector<std::string> words) : words_(std::move(words)) {
    for (std::string& w : words_) ptrs_.push_back(w.data());
    ptrs_.push_back(nullptr);
  }
  int argc() const { return static_cast<int>(words_.size()); }
  char** argv() { return ptrs_.data(); }
  const std::string& operator[](size_t i) const { return words_[i]; }

 private:
  std::vector<std::string> words_;
  std::vector<char*> ptrs_;
};

struct Own {
  bool json = false;
  bool color = false;
  pm::CommandOptions options(bool operands) {
    pm::CommandOptions o;
    o.command = operands ? "stat" : "live";
    o.short_options.push_back('c');  // (GCC 12 misreads = "c" as -Wrestrict)
    o.long_options = {{"json", no_argument, nullptr, 1000},
                      {"color", no_argument, nullptr, 'c'}};
    o.apply = [this](int opt, const char*) { (opt == 'c' ? color : json) = true; };
    o.operands = operands;
    return o;
  }
};

}  // namespace

TEST_CASE("stat: the command's own --json, record's options, then CMD after --") {
  Argv a({"stat", "--json", "-i", "0.1", "--", "sleep", "-1"});
  Own own;
  int first = 0;
  pm::RecordArgs r = pm::ParseRecordArgsFor(a.argc(), a.argv(), own.options(true), first);
  CHECK(own.json);
  CHECK_FALSE(r.json);  // not record's --status --json
  CHECK(r.config.interval_ns == 100'000'000);
  REQUIRE(first == 5);
  CHECK(a[static_cast<size_t>(first)] == "sleep");
}

TEST_CASE("stat: options end at the first operand even without --") {
  Argv a({"stat", "-l", "x.pgr", "sh", "-c", "exit 3"});
  Own own;
  int first = 0;
  pm::RecordArgs r = pm::ParseRecordArgsFor(a.argc(), a.argv(), own.options(true), first);
  CHECK(r.config.output == "x.pgr");
  CHECK(first == 3);
}

TEST_CASE("live: its short option among record's, and no operands") {
  Argv a({"live", "-ci", "0.5", "-t", "2"});
  Own own;
  int first = 0;
  pm::RecordArgs r = pm::ParseRecordArgsFor(a.argc(), a.argv(), own.options(false), first);
  CHECK(own.color);
  CHECK(r.config.interval_ns == 500'000'000);
  CHECK(r.config.timeout_ns == 2'000'000'000);

  Argv extra({"live", "now"});
  try {
    pm::ParseRecordArgsFor(extra.argc(), extra.argv(), own.options(false), first);
    FAIL("an operand was accepted");
  } catch (const pm::UsageError& e) {
    CHECK(std::string(e.what()).find("'now'") != std::string::npos);
    CHECK(std::string(e.what()).find("perfmonger live --help") != std::string::npos);
  }
}

TEST_CASE("an unknown option names the command whose help to read") {
  Argv a({"stat", "--jsn", "--", "true"});
  Own own;
  int first = 0;
  CHECK_THROWS_WITH_AS(
      pm::ParseRecordArgsFor(a.argc(), a.argv(), own.options(true), first),
      "unknown option: --jsn (see perfmonger stat --help)", pm::UsageError);
}

TEST_CASE("--format-version: 1 by default, 2 on request, nothing else") {
  Argv plain({"record"});
  CHECK(pm::ParseRecordArgs(plain.argc(), plain.argv()).config.format_version == 1);
  Argv v2({"record", "--format-version", "2"});
  CHECK(pm::ParseRecordArgs(v2.argc(), v2.argv()).config.format_version == 2);
  for (const char* bad : {"3", "0", "2x", ""}) {
    Argv a({"record", "--format-version", bad});
    CHECK_THROWS_AS(pm::ParseRecordArgs(a.argc(), a.argv()), pm::UsageError);
  }
}
