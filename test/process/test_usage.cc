// The command line a user types first: help, version, a typo.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "test/process/fake_proc.hh"
#include "test/process/spawn.hh"

namespace pm::test {
namespace {

std::string FirstLine(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

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
    // Whole entries at the start of a line: "--log" alone must not pass
    // for "--logfile", nor "-i" for "--record-intr".
    for (const char* entry : {"      --ready-fd N ", "      --stop-fd N ",
                              "      --meta KEY=VALUE ", "  -l, --logfile PATH ",
                              "  -i, --interval DUR "}) {
      CAPTURE(entry);
      CHECK(r.out.find(std::string("\n") + entry) != std::string::npos);
    }
  }

  TEST_CASE("record: PerfMonger's --FLAG=false form turns network back on") {
    TempDir dir;
    ExitResult r = Run({"record", "--no-net", "--no-net=false", "--no-mem=true", "-t", "0.05",
                        "--no-gzip", "-l", dir / "r.pgr"});
    CHECK(r.code == 0);
    std::string header = FirstLine(dir / "r.pgr");
    CHECK(header.find("\"net\":{") != std::string::npos);
    CHECK(header.find("\"mem\":{") == std::string::npos);
  }

  TEST_CASE("record: options without their mode are refused before recording") {
    TempDir dir;
    for (const std::vector<std::string>& args :
         std::vector<std::vector<std::string>>{{"--kill-timeout", "1s"},
                                               {"--ready-timeout", "1s"},
                                               {"--log", dir / "log"}}) {
      CAPTURE(args[0]);
      std::vector<std::string> argv = {"record", "-l", dir / "out.pgr"};
      argv.insert(argv.end(), args.begin(), args.end());
      ExitResult r = Run(argv);
      CHECK(r.code == 1);
      CHECK(SplitLines(r.err).size() == 1);
      CHECK(r.err.find("goes with --") != std::string::npos);
      CHECK_FALSE(std::filesystem::exists(dir / "out.pgr"));
    }
  }

  TEST_CASE("record: -i too large says so; compound durations and /dev/ paths accepted") {
    ExitResult big = Run({"record", "-i", "10000000000"});
    CHECK(big.code == 1);
    CHECK(big.err.find("too large") != std::string::npos);
    CHECK(big.err.find("not a duration") == std::string::npos);
    TempDir dir;
    FakeProc fake(CountersAt(0));
    ExitResult ok = Run({"record", "-i", "0m0.1s", "-t", "0h0m0.05s", "-d", "/dev/vda",
                         "--root", fake.root(), "--no-gzip", "-l", dir / "r.pgr"});
    CAPTURE(ok.err);
    CHECK(ok.code == 0);
    CHECK(FirstLine(dir / "r.pgr").find("\"devices\":[\"vda\"]") != std::string::npos);
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
