#include "tools/pager.hh"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <exception>

#include "common/io.hh"

namespace pm {
namespace {

// Runs `sh -c command` on a pipe, writes `text` into it, waits. Returns
// false if the pager could not be started.
bool RunPager(std::string_view text, const std::string& command) {
  Pipe pipe = MakePipe();
  pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    signal(SIGPIPE, SIG_DFL);  // ignored by main; a pager should not inherit that
    if (dup2(pipe.read_end.Get(), 0) < 0) _exit(126);  // clears CLOEXEC
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  pipe.read_end.Reset();
  try {
    WriteAll(pipe.write_end.Get(), text);
  } catch (const std::exception&) {
    // The pager quit before reading everything (or never ran: see below).
  }
  pipe.write_end.Reset();
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  bool not_started = WIFEXITED(status) &&
                     (WEXITSTATUS(status) == 126 || WEXITSTATUS(status) == 127);
  return !not_started;
}

}  // namespace

std::string PagerCommand(const std::string* option) {
  if (option) return *option;
  const char* env = std::getenv("PAGER");
  return env ? env : "less";
}

void ShowPaged(std::string_view text, const std::string& command) {
  if (!command.empty() && isatty(1) && RunPager(text, command)) return;
  WriteAll(1, text);
}

}  // namespace pm
