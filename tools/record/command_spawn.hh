// Starting and reaping the command `perfmonger stat` runs.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "common/spawn.hh"

namespace pm {

// Runs argv[0] (searched in PATH) with our stdin, stdout, stderr, other
// inheritable fds and environment, an empty signal mask and default signal
// dispositions (the recorder blocks SIGINT/SIGTERM and ignores SIGPIPE;
// the command must not inherit that), through the common spawn: the
// recorder's memory is not copied. Throws std::system_error with the
// lookup's or exec's errno (ENOENT, EACCES, ...) when it cannot be started.
SpawnedChild SpawnCommand(const std::vector<std::string>& argv);

// Reaps it (blocking until it exits); returns its exit status, or 128 +
// the signal that killed it, as a shell does. `signo` gets that signal or 0.
int ReapCommand(pid_t pid, int* signo = nullptr);

}  // namespace pm
