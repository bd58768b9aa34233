#include "tools/record/command_spawn.hh"

#include <sys/wait.h>

#include "common/child_spawn.hh"

namespace pm {

SpawnedChild SpawnCommand(const std::vector<std::string>& argv) {
  // As a shell runs it: every fd it was not told to close is inherited.
  return ChildSpawn0({.argv = argv, .keep_other_fds = true});
}

int ReapCommand(pid_t pid, int* signo) {
  int status = 0;
  ReapChild(pid, &status, nullptr);
  if (signo) *signo = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

}  // namespace pm
