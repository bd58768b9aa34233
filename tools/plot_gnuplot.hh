// Running gnuplot: a child process (common/child_spawn.hh), stdin
// /dev/null, its stdout and stderr captured through one pipe, waited on
// with a pidfd and a deadline.
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

namespace pm {

// gnuplot missing, failing, or too slow: `plot` exits 1 with the message.
class ChartError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `gnuplot SCRIPT` with `dir` as its working directory. Throws
// ChartError with gnuplot's own complaint (its last lines) when it exits
// non-zero, dies, or is still running at the deadline (then it is killed).
void RunGnuplot(const std::string& gnuplot, const std::string& dir,
                const std::string& script, std::chrono::milliseconds timeout);

}  // namespace pm
