// The stop fd: EOF or a read error means "stop gracefully"; bytes that
// arrive are drained and ignored.
//
// Owns the inherited fd. libuv would put O_NONBLOCK on any fd it polls, and
// that flag lives on the open file description the parent shares (a shell's
// terminal, the harness's pipe). So the inherited fd goes into a private
// epoll instance, level-triggered, and libuv polls that epoll fd instead:
// the parent's flags are never touched, and a read happens only when the
// kernel reports the fd readable, so it does not block.
#pragma once

#include "common/unique_fd.hh"
#include "daemon/poll_watcher.hh"

namespace pm {

// A private epoll holding one inherited fd; shared by every source that
// watches a descriptor the parent gave us.
class ProxyEpoll {
 public:
  // Throws UsageError if `fd` cannot be polled (e.g. /dev/null).
  ProxyEpoll(int fd, unsigned epoll_events, const char* flag);
  int Get() const { return epfd_.Get(); }
  // Consumes the readiness report; true if the inner fd is ready.
  bool TakeReady() const;

 private:
  UniqueFd epfd_;
};

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
