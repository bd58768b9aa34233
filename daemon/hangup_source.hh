// A descriptor the recorder writes to but never reads (`live`'s stdout):
// its reader going away is an event, so a closed pipe stops the recording
// at once rather than at the next write's EPIPE, whatever the interval.
//
// Borrows the fd (the caller keeps it open until Close()). It is watched
// through a private epoll instance for nothing but EPOLLERR (a pipe whose
// reader has gone) and EPOLLHUP (a socket shut down), which the kernel
// always reports: libuv never sees the fd, so its flags, shared with the
// parent, stay untouched (see ProxyEpoll). Only pipes and sockets can be
// watched; check with CanWatch() first.
#pragma once

#include "daemon/poll_watcher.hh"
#include "daemon/proxy_epoll.hh"

namespace pm {

class HangupSource final : public PollWatcher {
 public:
  class Handler {
   public:
    virtual void OnHangup() noexcept = 0;

   protected:
    ~Handler() = default;
  };

  // A pipe or a socket (a file or a terminal has no reader to lose).
  static bool CanWatch(int fd);

  HangupSource(uv_loop_t& loop, Handler& handler, int fd);

 private:
  void OnPoll(int status, int events) noexcept override;

  Handler& handler_;
  ProxyEpoll proxy_;
};

}  // namespace pm
