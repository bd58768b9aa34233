// Shell completion as a shell runs it: bash's completion function driven
// with COMP_WORDS, fish's `complete -C`, and init-shell's detection of the
// shell. Completion, --help and the parsers come from one table per command;
// this checks that --help and completion agree for every command.
#include <doctest/doctest.h>

#include <unistd.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

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

bool Installed(const std::string& program) {
  for (const char* dir : {"/usr/bin/", "/bin/", "/usr/local/bin/"})
    if (access((dir + program).c_str(), X_OK) == 0) return true;
  return false;
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
          std::set<std::string>{"json", "csv", "openmetrics"});
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

  TEST_CASE("fish and zsh complete with their scripts (when installed)") {
    if (!Installed("fish")) {
      MESSAGE("fish not installed (apt-get install fish): fish completion not run");
    } else {
      ExitResult r = Run({"-c",
                          "\"$argv[1]\" completion fish | source; "
                          "complete -C 'perfmonger rec'; complete -C 'perfmonger record --no-n'",
                          PerfmongerPath()},
                         "/usr/bin/fish");
      CAPTURE(r.err);
      CHECK(r.code == 0);
      std::vector<std::string> lines = SplitLines(r.out);
      REQUIRE(lines.size() >= 2);
      CHECK(lines[0].rfind("record\t", 0) == 0);
      CHECK(lines[1].rfind("--no-net\t", 0) == 0);
    }
    if (!Installed("zsh")) {
      MESSAGE("zsh not installed (apt-get install zsh): zsh completion not run");
    } else {
      // An interactive zsh on a pty types the TABs; each read waits for the
      // completed line (a completion that never comes fails by the deadline).
      const std::string script =
          "zmodload zsh/zpty\n"
          "zpty z \"PS1='> ' PATH=${1:h}:$PATH TERM=dumb zsh -f -i\"\n"
          "zpty -w z 'autoload -U compinit; compinit -u -D; "
          "source <(perfmonger completion zsh); print RE\"\"ADY'\n"
          "zpty -r z out '*READY*'\n"
          "zpty -w -n z $'perfmonger rec\\t'\n"
          "zpty -r z out '*perfmonger record *' && print first\n"
          "zpty -w -n z $'\\C-uperfmonger record --no-n\\t'\n"
          "zpty -r z out '*--no-net *' && print second\n"
          "zpty -d z\n";
      ExitResult r = Run({"-f", "-c", script, "zsh", PerfmongerPath()}, "/usr/bin/zsh");
      CAPTURE(r.err);
      CHECK(r.out == "first\nsecond\n");
    }
  }
}

}  // namespace
}  // namespace pm::test
