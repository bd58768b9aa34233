// The stop fd: EOF or a read error means "stop gracefully"; bytes that
// arrive are drained and ignored.
//
// Owns the inherited fd. libuv would put O_NONBLOCK on any fd it polls, and
// that flag lives on the open file description the parent shares (a shell's
// terminal, the harness's pipe). So the inherited fd goes into a private
// epoll instance, level-triggered, and libuv polls that epoll fd instead:
// the parent's flags are never touched, and a read happens only when the
// kernel reports the fd readable, so it does not block (see ProxyEpoll).
#pragma once

#include "common/unique_fd.hh"
#include "daemon/poll_watcher.hh"
#include "daemon/proxy_epoll.hh"

namespace pm {

class StopSource final : public PollWatcher {
 public:
  class Handler {
   public:
    virtual void OnStopFd() noexcept = 0;

   protected:
    ~Handler() = default;
  };

  StopSource(uv_loop_t& loop, Handler& handler, UniqueFd fd, const char* flag);

 private:
  void OnPoll(int status, int events) noexcept override;

  Handler& handler_;
  UniqueFd fd_;
  ProxyEpoll proxy_;
};

}  // namespace pm
