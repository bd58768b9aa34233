// Runs a program and captures its standard output, for `fingerprint`.
// The program gets /dev/null as stdin and stderr, LC_ALL=C, and a deadline
// after which it is killed. No shell is involved.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace pm {

struct CommandOutput {
  std::string out;     // standard output, at most a cap (64 MiB)
  bool ok = false;     // exited 0 before the deadline
  std::string reason;  // why not ok: "exit status 1", "timed out", ...
};

// `argv[0]` a path or a name on PATH (common/program_path.hh). A program
// that cannot be started is not ok, its reason the spawn's error.
CommandOutput RunForOutput(const std::vector<std::string>& argv,
                           std::chrono::milliseconds timeout);

}  // namespace pm
