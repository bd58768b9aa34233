#include "daemon/signal_source.hh"

#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>

#include "common/error.hh"

namespace pm {
namespace {

UniqueFd MakeSignalFd() {
  sigset_t set = SignalSource::BlockStopSignals();
  int fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
  if (fd < 0) throw SystemError("signalfd");
  return UniqueFd::Adopt(fd);
}

}  // namespace

sigset_t SignalSource::BlockStopSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  // A dropped ssh session or closed terminal stops the recording cleanly,
  // unless the caller asked to outlive it (nohup: SIGHUP ignored). A
  // blocked signal is queued even if ignored, so ask before blocking.
  struct sigaction hup;
  if (sigaction(SIGHUP, nullptr, &hup) == 0 && hup.sa_handler != SIG_IGN)
    sigaddset(&set, SIGHUP);
  sigprocmask(SIG_BLOCK, &set, nullptr);
  return set;
}

int SignalSource::PendingStopSignal() {
  sigset_t pending;
  if (sigpending(&pending) != 0) return 0;
  for (int signo : {SIGINT, SIGTERM, SIGHUP})
    if (sigismember(&pending, signo) == 1) return signo;
  return 0;
}

const char* SignalSource::Name(int stop_signal) {
  return stop_signal == SIGINT ? "SIGINT" : stop_signal == SIGHUP ? "SIGHUP" : "SIGTERM";
}

SignalSource::SignalSource(uv_loop_t& loop, Handler& handler)
    : PollWatcher(loop), handler_(handler), fd_(MakeSignalFd()) {
  Watch(fd_.Get(), UV_READABLE);
}

void SignalSource::OnPoll(int status, int) noexcept {
  if (status < 0) return handler_.OnSourceError("signalfd", -status);
  struct signalfd_siginfo info;
  for (;;) {
    ssize_t n = ::read(fd_.Get(), &info, sizeof info);
    if (n == static_cast<ssize_t>(sizeof info)) {
      handler_.OnSignal(static_cast<int>(info.ssi_signo));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN) handler_.OnSourceError("signalfd", errno);
    return;
  }
}

}  // namespace pm
