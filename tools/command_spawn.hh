// Starting and reaping the command `perfmonger stat` runs: the one place
// that spawns it (a candidate for the common Spawn helper).
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "common/unique_fd.hh"

namespace pm {

struct SpawnedCommand {
  pid_t pid = -1;
  UniqueFd pidfd;  // readable once the command has exited
};

// Runs argv[0] (searched in PATH) with our stdin, stdout, stderr and
// environment, an empty signal mask and default signal dispositions (the
// recorder blocks SIGINT/SIGTERM and ignores SIGPIPE; the command must
// not inherit that). Throws std::system_error with exec's errno (ENOENT,
// EACCES, ...) when it cannot be started.
SpawnedCommand SpawnCommand(const std::vector<std::string>& argv);

// Reaps it (blocking until it exits); returns its exit status, or 128 +
// the signal that killed it, as a shell does. `signo` gets that signal or 0.
int ReapCommand(pid_t pid, int* signo = nullptr);

}  // namespace pm
