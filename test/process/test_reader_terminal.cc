// A reader started at a shell with no file, standard input the terminal:
// a usage error at once, not a wait for a recording nobody will type.
#include <doctest/doctest.h>

#include <string>

#include "test/process/spawn.hh"
#include "test/process/terminal.hh"

namespace pm::test {

TEST_SUITE("readers on a terminal") {
  TEST_CASE("play, summary - and cat with standard input a terminal: exit 1, the fix named") {
    for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
             {"play"}, {"summary", "-"}, {"cat"}, {"play", "--format", "csv", "-"}}) {
      CAPTURE(args[0]);
      args.insert(args.begin(), PerfmongerPath());
      Terminal t(args, {"PATH=/usr/bin:/bin", "TERM=dumb"});
      std::string shown = t.WaitFor("pipe a recording in");
      CHECK(shown.find("perfmonger " + args[1] +
                       ": error: no recording named and standard input is a terminal: "
                       "give FILE, or pipe a recording in") != std::string::npos);
    }
  }
}

}  // namespace pm::test
