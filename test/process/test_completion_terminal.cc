// Completion as a user meets it: bash (with and without bash-completion),
// zsh (with compinit and without: zsh -f) and fish, each on a terminal,
// typed at with TABs. What each shell shows for the keys is read back once
// it has handled them (Terminal::Settle), so every check is deterministic.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test/process/cgroup_group.hh"
#include "test/process/shells.hh"

namespace pm::test {
namespace {

namespace fs = std::filesystem;

// A whole disk of this machine with something behind it (size > 0).
std::string SomeDisk() {
  for (const auto& e : fs::directory_iterator("/sys/block")) {
    std::ifstream size(e.path() / "size");
    long sectors = 0;
    std::string name = e.path().filename().string();
    if (size >> sectors && sectors > 0 && !name.starts_with("loop")) return name;
  }
  return "";
}

// The shell's working directory: three recordings, a note, a directory.
struct Recordings {
  TempDir dir;
  Recordings() {
    for (const char* name : {"a.pgr.gz", "b.pgr.zst", "c.pgr", "notes.txt"})
      std::ofstream(dir / name) << "x";
    fs::create_directory(dir / "sub");
  }
};

struct ShellCase {
  std::string name;
  std::vector<std::string> argv;
  std::string setup;  // after `cd` to the recordings
  bool command_completion = true;  // stat's CMD gets CMD's own completion
};

void CheckSubcommandsAndCommands(Terminal& t, const ShellCase& s) {
  Complete(t, "perfmonger rec\t", "record");
  Complete(t, "perfmonger stat -- perfmong\t", "-- perfmonger");  // CMD's name
  // CMD's arguments are CMD's: here files, not command names.
  Complete(t, "perfmonger stat -- cat su\t", "sub/");
  if (!s.command_completion) return;
  // CMD's own completion, here perfmonger's own: its --version, not
  // stat's --json.
  Complete(t, "perfmonger stat -i 1 -- perfmonger --ver\t", "--version");
  Complete(t, "perfmonger stat perfmonger summ\t", "summarize");
  std::string out = Complete(t, "perfmonger stat -- perfmonger --\t", "--version");
  CHECK_MESSAGE(out.find("--json") == std::string::npos, out);
}

void CheckValues(Terminal& t) {
  Complete(t, "perfmonger play --format=\t", "openmetrics");
  Complete(t, "perfmonger play --format=op\t", "=openmetrics");

  std::string disk = SomeDisk();
  REQUIRE(!disk.empty());
  Complete(t, "perfmonger record -d \t", disk);

  // The shell's own pid, offered from all but its last digit.
  std::string pid = std::to_string(t.pid());
  Complete(t, "perfmonger record --pid " + pid.substr(0, pid.size() - 1) + "\t", pid);

  TestGroup group;
  if (!group.made) {
    MESSAGE("no writable cgroup v2 hierarchy: --cgroup values not checked");
  } else {
    REQUIRE(fs::create_directory(group.path + "/a"));
    Complete(t, "perfmonger stat --cgroup " + group.name + "/\t", group.name + "/a");
  }

  std::string out = Complete(t, "perfmonger summary \t", "sub/");
  for (const char* recording : {"a.pgr.gz", "b.pgr.zst", "c.pgr"})
    CHECK_MESSAGE(out.find(recording) != std::string::npos, out);
  CHECK_MESSAGE(out.find("notes.txt") == std::string::npos, out);
}

// No shell said a word about the scripts themselves.
void CheckNoErrors(const Terminal& t) {
  for (const char* error : {"bad math expression", "command not found", "compdef"})
    CHECK_MESSAGE(t.transcript().find(error) == std::string::npos, t.transcript());
}

void CheckShell(const ShellCase& s) {
  Recordings cwd;
  TempDir home;
  StartedShell shell = StartShell(s.argv, UserEnv(home.path()),
                                  "cd '" + cwd.dir.path() + "'; " + s.setup);
  CheckSubcommandsAndCommands(*shell.terminal, s);
  CheckValues(*shell.terminal);
  CheckNoErrors(*shell.terminal);
}

constexpr char kInit[] = "eval \"$(perfmonger init-shell)\"";
// A user who wants one TAB to list what it cannot complete (and to see
// every match, never a pager): readline's and zsh's settings for that.
constexpr char kBashListing[] =
    "PS1='$ '; bind 'set show-all-if-ambiguous on'; bind 'set completion-query-items 0'; "
    "bind 'set page-completions off'; ";
constexpr char kZshListing[] = "PS1='$ '; unsetopt list_ambiguous; LISTMAX=100000; ";

TEST_SUITE("completion on a terminal") {
  TEST_CASE("bash with bash-completion: CMD's own completion after stat --") {
    CheckShell({"bash", {ShellPath("bash"), "--norc", "--noprofile", "-i"},
                std::string(kBashListing) + "source /usr/share/bash-completion/bash_completion; " + kInit});
  }

  TEST_CASE("bash without bash-completion: CMD as a command name, then files") {
    CheckShell({"bash", {ShellPath("bash"), "--norc", "--noprofile", "-i"},
                std::string(kBashListing) + kInit, /*command_completion=*/false});
  }

  TEST_CASE("bash: -d completes after a comma too") {
    TempDir home;
    StartedShell shell = StartShell({ShellPath("bash"), "--norc", "--noprofile", "-i"},
                                    UserEnv(home.path()), std::string(kBashListing) + kInit);
    std::string disk = SomeDisk();
    Complete(*shell.terminal, "perfmonger record -d " + disk + ",\t", disk + "," + disk);
  }

  TEST_CASE("zsh with compinit") {
    CheckShell({"zsh", {ShellPath("zsh"), "-f", "-i"},
                std::string(kZshListing) + "autoload -Uz compinit; compinit -u -D; " + kInit});
  }

  TEST_CASE("zsh -f: init-shell turns completion on itself") {
    CheckShell({"zsh", {ShellPath("zsh"), "-f", "-i"}, std::string(kZshListing) + kInit});
  }

  TEST_CASE("fish") {
    CheckShell({"fish", {ShellPath("fish"), "-i"},
                "set -g fish_autosuggestion_enabled 0; perfmonger init-shell | source"});
  }

  TEST_CASE("fish shows each option's and each process's whole description") {
    TempDir home;
    StartedShell shell = StartShell({ShellPath("fish"), "-i"}, UserEnv(home.path()),
                                    "set -g fish_autosuggestion_enabled 0; "
                                    "perfmonger init-shell | source");
    Terminal& t = *shell.terminal;
    std::string out = Complete(t, "perfmonger record --log\t",
                               "the recording (.gz gzip, .zst zstd, else plain)");
    CHECK_MESSAGE(out.find("where the background child's output goes") != std::string::npos,
                  out);
    std::string pid = std::to_string(t.pid());
    Complete(t, "complete -C 'perfmonger record --pid " + pid + "'\r", pid + "\tfish");
  }
}

}  // namespace
}  // namespace pm::test
