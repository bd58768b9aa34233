// The shapes of Spawn most callers need, as thin wrappers in the spirit of
// skalibs' child_spawn0 and child_spawn1_pipe: a program looked up on PATH
// once (FindProgram), started with stdio inherited or with one pipe.
#pragma once

#include <string>
#include <vector>

#include "common/spawn.hh"
#include "common/unique_fd.hh"

namespace pm {

struct ChildCommand {
  std::vector<std::string> argv = {};  // argv[0]: a path, or a name looked up on PATH
  std::vector<std::string> env = {};   // "NAME=VALUE", added to or replacing in environ
  std::string cwd = {};                // empty: the caller's
  bool keep_other_fds = false;         // inherit the fds above 2 that are not CLOEXEC
};

// Stdio inherited. Throws std::system_error: "cannot run 'NAME': No such
// file or directory" (ENOENT), "cannot run 'NAME' (is a directory):
// Permission denied" (EACCES), or Spawn's "cannot start PATH: STEP: ...".
SpawnedChild ChildSpawn0(const ChildCommand& command);

enum class PipeTo { kStdin, kStdout, kStdoutAndStderr };

struct PipedChild {
  SpawnedChild child;
  UniqueFd fd;  // the caller's end of the pipe
};

// One pipe between caller and child. kStdin: the child reads its stdin from
// it (stdout and stderr inherited) and the caller gets the write end.
// kStdout, kStdoutAndStderr: the child writes into it, its stdin (and an
// unpiped stderr) is /dev/null, and the caller gets the read end. Throws
// as ChildSpawn0.
PipedChild ChildSpawn1Pipe(const ChildCommand& command, PipeTo to);

// environ with `extra` ("NAME=VALUE") added, each replacing its NAME.
std::vector<std::string> MergedEnvironment(const std::vector<std::string>& extra);

}  // namespace pm
