// Runs a program and captures its standard output, for `fingerprint`.
// The program gets /dev/null as stdin and stderr, LC_ALL=C, and a deadline
// after which it is killed. No shell is involved.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace pm {

// The absolute path of `name` found on $PATH (or `name` itself when it
// contains a '/' and is executable); nullopt when there is none.
std::optional<std::string> FindProgram(const std::string& name);

struct CommandOutput {
  std::string out;     // standard output, at most a cap (64 MiB)
  bool ok = false;     // exited 0 before the deadline
  std::string reason;  // why not ok: "exit status 1", "timed out", ...
};

// `argv[0]` must be a path (see FindProgram). Throws std::system_error when
// the process cannot be created at all.
CommandOutput RunForOutput(const std::vector<std::string>& argv,
                           std::chrono::milliseconds timeout);

}  // namespace pm
