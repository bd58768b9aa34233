// SIGINT, SIGTERM and SIGHUP, read from a signalfd so they arrive as loop events.
//
// The constructor blocks the signals for the process (the mask is what makes
// a signalfd see them); owns its signalfd. A signal's arrival is handed to
// the handler; nothing else happens in signal context.
#pragma once

#include <signal.h>

#include "common/unique_fd.hh"
#include "daemon/poll_watcher.hh"

namespace pm {

class SignalSource final : public PollWatcher {
 public:
  class Handler {
   public:
    virtual void OnSignal(int signo) noexcept = 0;
    virtual void OnSourceError(const char* what, int err) noexcept = 0;

   protected:
    ~Handler() = default;
  };

  SignalSource(uv_loop_t& loop, Handler& handler);

  // Blocks SIGINT, SIGTERM and (unless ignored, as under nohup) SIGHUP; call before anything that may be interrupted.
  static sigset_t BlockStopSignals();
  // One of those that has arrived and waits, unread, or 0.
  static int PendingStopSignal();
  static const char* Name(int stop_signal);  // "SIGINT", "SIGTERM", "SIGHUP"

 private:
  void OnPoll(int status, int events) noexcept override;

  Handler& handler_;
  UniqueFd fd_;
};

}  // namespace pm
