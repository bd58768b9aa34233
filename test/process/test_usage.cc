// The command line a user types first: help, version, a typo.
#include <doctest/doctest.h>

#include "test/process/spawn.hh"

namespace pm::test {
namespace {

TEST_SUITE("usage") {
  TEST_CASE("help goes to stdout and exits 0") {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {}, {"--help"}, {"record", "--help"}}) {
      std::string joined;
      for (const auto& a : args) joined += " " + a;
      CAPTURE(joined);
      ExitResult r = Run(args);
      CHECK(r.code == 0);
      CHECK(r.out.rfind("Usage:", 0) == 0);
      CHECK(r.err.empty());
    }
  }

  TEST_CASE("record --help lists the embedding options") {
    ExitResult r = Run({"record", "--help"});
    for (const char* option : {"--ready-fd", "--stop-fd", "--meta", "-l", "-i"}) {
      CAPTURE(option);
      CHECK(r.out.find(option) != std::string::npos);
    }
  }

  TEST_CASE("--version prints the version") {
    ExitResult r = Run({"--version"});
    CHECK(r.code == 0);
    CHECK(r.out.rfind("PerfMonger version ", 0) == 0);
    CHECK(r.out.size() > std::string("PerfMonger version \n").size());
    CHECK(r.out.back() == '\n');
  }

  TEST_CASE("an unknown subcommand exits 1 with a message on stderr") {
    ExitResult r = Run({"recrod"});
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    CHECK(r.err.find("recrod") != std::string::npos);
    CHECK(SplitLines(r.err).size() == 1);
  }
}

}  // namespace
}  // namespace pm::test
