#include "tools/readers/pager.hh"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <exception>

#include "common/child_spawn.hh"
#include "common/io.hh"
#include "proto/text.hh"

namespace pm {
namespace {

// What a pager's wait status says about it: nullopt when it showed the
// text (or the user ended it), else why it failed.
std::optional<std::string> PagerFailure(int status) {
  if (WIFEXITED(status)) {
    int code = WEXITSTATUS(status);
    if (code == 0) return std::nullopt;
    if (code == 126 || code == 127) return "could not be started";
    return "failed (exit status " + std::to_string(code) + ")";
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) != SIGINT)
    return "was killed by signal " + std::to_string(WTERMSIG(status));
  return std::nullopt;
}

// Runs `sh -c command` on a pipe, writes `text` into it, waits. Returns
// why the pager failed, or nullopt.
std::optional<std::string> RunPager(std::string_view text, const std::string& command) {
  PipedChild pager;
  try {
    pager = ChildSpawn1Pipe({.argv = {"/bin/sh", "-c", command}}, PipeTo::kStdin);
  } catch (const std::exception&) {
    return "could not be started";
  }
  try {
    WriteAll(pager.fd.Get(), text);
  } catch (const std::exception&) {
    // The pager quit before reading everything: its status tells why.
  }
  pager.fd.Reset();
  int status = 0;
  ReapChild(pager.child.pid, &status, nullptr);
  return PagerFailure(status);
}

}  // namespace

std::string PagerCommand(const std::string* option) {
  if (option) return *option;
  const char* env = std::getenv("PAGER");
  return env ? env : "less";
}

std::optional<std::string> ShowPaged(std::string_view text, const std::string& command) {
  std::optional<std::string> failure;
  if (!command.empty() && isatty(1)) {
    failure = RunPager(text, command);
    if (!failure) return std::nullopt;
  }
  WriteAll(1, text);
  if (!failure) return std::nullopt;
  return "the pager '" + Printable(command) + "' " + *failure + ": printed directly";
}

}  // namespace pm
