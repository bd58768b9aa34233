// bash, zsh and fish as a user starts them, on a terminal
// (test/process/terminal.hh): a home of their own, perfmonger on PATH.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "test/process/spawn.hh"
#include "test/process/terminal.hh"

namespace pm::test {

// "/usr/bin/zsh"; fails the test, naming the package, when it is missing
// (scripts/setup installs bash-completion, zsh and fish).
std::string ShellPath(const std::string& name);

// A fresh user's environment: HOME (and ZDOTDIR) `home`, perfmonger's
// directory first on PATH, then `extra` ("K=V").
std::vector<std::string> UserEnv(const std::string& home,
                                 const std::vector<std::string>& extra = {});

// A shell started with `argv` that has run `setup` (one command line)
// and shown what it printed; `shown` is that output.
struct StartedShell {
  std::unique_ptr<Terminal> terminal;
  std::string shown;
};
StartedShell StartShell(std::vector<std::string> argv, std::vector<std::string> env,
                        const std::string& setup);

// Types `keys` (TABs in them), waits until the shell shows `expected`,
// then until it has handled every key (Terminal::Settle), and returns all
// it showed meanwhile. (A line editor redraws only once no key is pending,
// so each completion is waited for before the next keys are typed.)
std::string Complete(Terminal& t, const std::string& keys, const std::string& expected);

// Whether `word` is a whole blank-separated word of `text`.
bool HasWord(const std::string& text, const std::string& word);

}  // namespace pm::test
