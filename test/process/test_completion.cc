// Shell completion scripts run by the shells, without a terminal: bash's
// completion function driven with COMP_WORDS, fish's `complete -C`, the
// values `completion --values` lists, and init-shell's detection of the
// shell. Completion, --help and the parsers come from one table per
// command; this checks that --help and completion agree for every command.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "test/process/cgroup_group.hh"
#include "test/process/shells.hh"
#include "test/process/spawn.hh"

namespace pm::test {
namespace {

// What bash's completion function offers for the words of `line` (the
// last word the one being completed; a trailing space starts a new one).
std::vector<std::string> BashCompletes(const std::string& line) {
  const std::string script =
      "source <(\"$0\" completion bash) || exit 3\n"
      "read -ra COMP_WORDS <<<\"$1\"\n"
      "[[ $1 == *' ' ]] && COMP_WORDS+=('')\n"
      "COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
      "complete -p perfmonger >/dev/null || exit 4\n"
      "_perfmonger\n"
      "printf '%s\\n' \"${COMPREPLY[@]}\"\n";
  ExitResult r = Run({"-c", script, PerfmongerPath(), line}, "/bin/bash");
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  std::vector<std::string> words;
  for (const std::string& w : SplitLines(r.out))
    if (!w.empty()) words.push_back(w);
  return words;
}

std::set<std::string> AsSet(const std::vector<std::string>& words) {
  return {words.begin(), words.end()};
}

// Every option word a --help text lists: "-l", "--logfile", ... (the
// entries' heads, not words inside their descriptions).
std::set<std::string> HelpOptions(const std::string& help) {
  std::set<std::string> out;
  std::istringstream lines(help);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with("  -") && !line.starts_with("      --")) continue;
    std::istringstream words(line);
    for (std::string w; words >> w && w.starts_with("-");) {
      if (w.ends_with(",")) w.pop_back();
      if (size_t when = w.find("[="); when != std::string::npos) w.erase(when);  // --color[=WHEN]
      out.insert(w);
    }
  }
  return out;
}

// The commands `perfmonger --help` lists.
std::vector<std::string> Commands() {
  ExitResult r = Run({"--help"});
  std::vector<std::string> out;
  bool in_list = false;
  for (const std::string& line : SplitLines(r.out)) {
    if (line == "Commands:") in_list = true;
    else if (line.empty()) in_list = false;
    else if (in_list && line.size() > 2 && line[2] != ' ') out.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  return out;
}

// The first lines of the --help entries that go on over more lines: what
// a description cut at the first line would be. (An entry's help starts
// at column 25, on its own line when the option's spelling is longer.)
std::set<std::string> CutFirstLines(const std::string& help) {
  std::set<std::string> out;
  std::vector<std::string> lines = SplitLines(help);
  const std::string indent(25, ' ');
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("  -") && !lines[i].starts_with("      --")) continue;
    std::vector<std::string> text;
    if (lines[i].size() > 25) text.push_back(lines[i].substr(25));
    for (size_t j = i + 1; j < lines.size() && lines[j].starts_with(indent); ++j)
      text.push_back(lines[j].substr(25));
    if (text.size() > 1) out.insert(text[0]);
  }
  return out;
}

TEST_SUITE("completion") {
  TEST_CASE("bash completes subcommands and record's --no- flags") {
    CHECK(BashCompletes("perfmonger rec") == std::vector<std::string>{"record"});
    CHECK(AsSet(BashCompletes("perfmonger summ")) ==
          std::set<std::string>{"summary", "summarize"});
    CHECK(AsSet(BashCompletes("perfmonger record --no-")) ==
          std::set<std::string>{"--no-cpu", "--no-disk", "--no-net", "--no-mem", "--no-gzip",
                                "--no-interval-backoff"});
    CHECK(AsSet(BashCompletes("perfmonger play --format ")) ==
          std::set<std::string>{"json", "csv", "openmetrics", "table", "columns"});
    CHECK(AsSet(BashCompletes("perfmonger completion ")) ==
          std::set<std::string>{"bash", "zsh", "fish"});
    // The hidden internal option is never offered.
    CHECK(BashCompletes("perfmonger record --background-").empty());
  }

  TEST_CASE("every command --help lists is completed, and its options are its --help's") {
    std::vector<std::string> commands = Commands();
    REQUIRE(commands.size() >= 9);
    std::set<std::string> top = AsSet(BashCompletes("perfmonger "));
    for (const std::string& command : commands) {
      CAPTURE(command);
      CHECK(top.count(command) == 1);
      ExitResult help = Run({command, "--help"});
      REQUIRE(help.code == 0);
      std::set<std::string> listed = HelpOptions(help.out);
      CHECK(listed.count("--help") == 1);
      CHECK(AsSet(BashCompletes("perfmonger " + command + " -")) == listed);
    }
  }

  TEST_CASE("init-shell: the parent shell, else $SHELL, else a usage error") {
    ExitResult from_bash = Run({"-c", "\"$0\" init-shell; true", PerfmongerPath()}, "/bin/bash");
    CHECK(from_bash.out.rfind("# bash completion for perfmonger", 0) == 0);
    SpawnOptions fish;  // the parent is this test: $SHELL decides
    fish.args = {"init-shell", "-"};
    fish.env = {"SHELL=/usr/bin/fish"};
    CHECK(Child(std::move(fish)).Wait().out.rfind("# fish completion for perfmonger", 0) == 0);
    SpawnOptions unknown;
    unknown.args = {"init-shell"};
    unknown.env = {"SHELL=/bin/sh"};
    ExitResult r = Child(std::move(unknown)).Wait();
    CHECK(r.code == 1);
    CHECK(r.out.empty());
    CHECK(SplitLines(r.err).size() == 1);
    CHECK(r.err.find("perfmonger init-shell bash") != std::string::npos);
    CHECK(Run({"init-shell", "zsh"}).out.rfind("#compdef perfmonger\n", 0) == 0);
  }

  TEST_CASE("completion: the shell is required and must be known") {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}}) {
      CAPTURE(args.size());
      ExitResult r = Run(args);
      CHECK(r.code == 1);
      CHECK(r.out.empty());
      CHECK(r.err.rfind("perfmonger completion: error: ", 0) == 0);
    }
  }

  TEST_CASE("fish's descriptions are whole: none is a --help entry cut at its first line") {
    std::string fish = ShellPath("fish");
    for (const std::string& command : Commands()) {
      CAPTURE(command);
      ExitResult r = Run({"-c",
                          "\"$argv[1]\" completion fish | source; "
                          "complete -C \"perfmonger $argv[2] --\"",
                          PerfmongerPath(), command},
                         fish);
      REQUIRE(r.code == 0);
      std::set<std::string> cut = CutFirstLines(Run({command, "--help"}).out);
      for (const std::string& line : SplitLines(r.out)) {
        size_t tab = line.find('\t');
        REQUIRE(tab != std::string::npos);  // every option has a description
        std::string description = line.substr(tab + 1);
        CAPTURE(line);
        CHECK(cut.count(description) == 0);
        CHECK(description.size() <= 60);
      }
    }
  }

  TEST_CASE("completion --values: the devices, cgroups and processes completion offers") {
    ExitResult devices = Run({"completion", "--values", "devices"});
    REQUIRE(devices.code == 0);
    CHECK(devices.out.find("\tdisk, ") != std::string::npos);  // "vda\tdisk, 256 GiB"
    for (const std::string& line : SplitLines(devices.out)) {
      CAPTURE(line);
      CHECK(std::filesystem::exists("/sys/class/block/" + line.substr(0, line.find('\t'))));
    }

    SpawnOptions sleeper;  // Child returns once sleep runs
    sleeper.program = "/bin/sleep";
    sleeper.args = {"60"};
    Child child(std::move(sleeper));
    ExitResult pids = Run({"completion", "--values", "pids"});
    CHECK(pids.out.find("\n" + std::to_string(child.pid()) + "\tsleep\n") != std::string::npos);
    CHECK(pids.out.find("\tkthreadd\n") == std::string::npos);  // no kernel threads

    TestGroup group;
    if (!group.made) {
      MESSAGE("no writable cgroup v2 hierarchy: --values cgroups not checked");
    } else {
      REQUIRE(::mkdir((group.path + "/a").c_str(), 0755) == 0);
      std::vector<std::string> groups = SplitLines(Run({"completion", "--values", "cgroups"}).out);
      CHECK(std::count(groups.begin(), groups.end(), group.name) == 1);
      CHECK(std::count(groups.begin(), groups.end(), group.name + "/a") == 1);
    }

    ExitResult bad = Run({"completion", "--values", "disks"});
    CHECK(bad.code == 1);
    CHECK(bad.out.empty());
    CHECK(bad.err ==
          "perfmonger completion: error: --values 'disks': give devices, cgroups or pids "
          "(see perfmonger completion --help)\n");
  }
}

}  // namespace
}  // namespace pm::test
