// `plot` stopped by SIGINT, SIGTERM or SIGHUP while its scratch directory
// exists: for that time the signals are blocked and read from a signalfd
// (SignalSource::BlockStopSignals, so nohup's ignored SIGHUP stays
// ignored), so that gnuplot is killed and the directory removed first, by
// unwinding; then plot dies by the same signal, as its caller expects.
#pragma once

#include <signal.h>

#include <exception>

#include "common/unique_fd.hh"

namespace pm {

// Thrown where a stop signal is noticed; PlotMain catches it and DieBy()s.
class PlotStopped : public std::exception {
 public:
  explicit PlotStopped(int signo) : signo_(signo) {}
  int signo() const { return signo_; }
  const char* what() const noexcept override { return "stopped by a signal"; }

 private:
  int signo_;
};

class StopSignals {
 public:
  StopSignals();   // blocks the signals, opens the signalfd
  ~StopSignals();  // the signal mask as it was
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  int fd() const { return fd_.Get(); }  // readable once one has arrived
  void ThrowIfStopped() const;          // throws PlotStopped for one that has

 private:
  sigset_t old_mask_;
  UniqueFd fd_;
};

// Standard output flushed, then the default action of `signo`: the exit
// status a shell reports for a process killed by it.
[[noreturn]] void DieBy(int signo);

}  // namespace pm
