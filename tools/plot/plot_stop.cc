#include "tools/plot/plot_stop.hh"

#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "common/error.hh"
#include "daemon/signal_source.hh"

namespace pm {

StopSignals::StopSignals() {
  sigprocmask(SIG_BLOCK, nullptr, &old_mask_);
  sigset_t set = SignalSource::BlockStopSignals();
  int fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd < 0) {
    sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    throw SystemError("signalfd");
  }
  fd_ = UniqueFd::Adopt(fd);
}

// A signal that arrived after the last check is delivered here, once the
// scratch directory is gone.
StopSignals::~StopSignals() { sigprocmask(SIG_SETMASK, &old_mask_, nullptr); }

void StopSignals::ThrowIfStopped() const {
  struct signalfd_siginfo info;
  ssize_t n;
  do {
    n = ::read(fd_.Get(), &info, sizeof info);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof info)) throw PlotStopped(static_cast<int>(info.ssi_signo));
}

void DieBy(int signo) {
  std::fflush(stdout);
  signal(signo, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, signo);
  sigprocmask(SIG_UNBLOCK, &set, nullptr);
  raise(signo);
  _exit(128 + signo);  // not reached: the default action of a stop signal ends us
}

}  // namespace pm
