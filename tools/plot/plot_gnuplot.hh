// Running gnuplot: a child process (common/child_spawn.hh), stdin
// /dev/null, its stdout and stderr captured through one pipe, waited on
// with a pidfd, a deadline and plot's stop signals (tools/plot/plot_stop.hh).
#pragma once

#include <chrono>
#include <stdexcept>
#include <string>

#include "tools/plot/plot_stop.hh"

namespace pm {

// gnuplot missing, failing, or too slow: `plot` exits 1 with the message.
class ChartError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `gnuplot SCRIPT` with `dir` as its working directory. Throws
// ChartError with gnuplot's own complaint (its last lines) when it exits
// non-zero, dies, or is still running at the deadline (then it is killed);
// PlotStopped, once gnuplot is killed and reaped, when a stop signal
// arrives.
void RunGnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script,
                std::chrono::milliseconds timeout, const StopSignals& stop);

}  // namespace pm
