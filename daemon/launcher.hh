// `record --background`: start the recorder detached and learn whether it
// came up (prior art: git's trace2 child_ready).
//
// The launcher forks and re-execs this binary (/proc/self/exe) as a new
// session (setsid), stdio on /dev/null or a log file, with a CLOEXEC
// readiness pipe as the child's --ready-fd. It then waits on the pipe and a
// pidfd until a deadline and prints one line on stdout:
//   {"event":"child_ready","pid":N,"ready":"ready"|"error"|"timeout",
//    "t_rel":S.ssssss,"output":"/abs/path"}
// with, on error, "reason" and "exit_code" or "signal". The child writes
// either the ready line or `error MESSAGE` on the pipe (see RecordMain).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pm {

struct LaunchOptions {
  std::vector<std::string> child_args;  // argv[1..] of the child, without --ready-fd
  std::string output;                   // absolute, for the report
  int64_t ready_timeout_ns = 5'000'000'000;
  std::string log_path;                 // the child's stdout/stderr; "" = /dev/null
};

// Exit status: 0 ready, 1 error (the child's message relayed on stderr),
// 2 timeout (the child is left running). Throws UsageError / system_error
// for failures before the child exists.
int LaunchBackground(const LaunchOptions& options);

// What the background child writes on its ready fd when setup fails.
std::string EncodeChildError(const std::string& message);

}  // namespace pm
