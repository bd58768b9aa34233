// `record --background`: start the recorder detached and learn whether it
// came up (prior art: git's trace2 child_ready).
//
// The launcher re-execs this binary (/proc/self/exe) through Spawn as a new
// session (setsid), stdio on /dev/null or a log file, with a CLOEXEC
// readiness pipe as the child's --ready-fd, and the user's command line in
// its environment (kSessionArgsEnv) for --status. It then waits on the pipe
// until a deadline that covers the requested start delay plus the ready
// timeout. The child writes either the ready line or `error MESSAGE` on the
// pipe (see RecordMain). Printing the outcome and choosing the exit status
// are the front end's (tools/record/background_cli.cc).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pm {

struct LaunchOptions {
  std::vector<std::string> child_args;  // argv[1..] of the child, without --ready-fd
  std::vector<std::string> user_args;   // what the user typed, for --status
  int64_t start_delay_ns = 0;           // the child's -s: the wait covers it
  int64_t ready_timeout_ns = 5'000'000'000;
  std::string log_path;                 // the child's stdout/stderr; "" = /dev/null
};

enum class Readiness { kReady, kError, kTimeout };

struct LaunchOutcome {
  pid_t pid = -1;
  Readiness readiness = Readiness::kTimeout;
  std::string reason;             // kError: the child's message
  std::optional<int> exit_code;   // kError: how the child ended, if seen
  std::optional<int> signal;
  int64_t elapsed_ns = 0;         // from just before the spawn
};

// Never blocks past start delay + ready timeout. A timed-out child is left
// running. Throws SetupError / system_error for failures before the child
// exists (the log cannot be opened, the spawn failed).
LaunchOutcome LaunchBackground(const LaunchOptions& options);

// What the background child writes on its ready fd when setup fails.
std::string EncodeChildError(const std::string& message);

}  // namespace pm
