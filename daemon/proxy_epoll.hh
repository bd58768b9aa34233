// A private epoll instance holding one descriptor the parent gave us.
//
// libuv puts O_NONBLOCK on any fd it polls, and that flag lives on the open
// file description the parent shares (a shell's terminal, a harness's
// pipe). Registering the inherited fd here, level-triggered, and giving
// libuv this epoll fd instead keeps the parent's flags untouched; a read or
// write happens only when the kernel has reported the fd ready.
#pragma once

#include "common/unique_fd.hh"

namespace pm {

class ProxyEpoll {
 public:
  // Throws UsageError naming `flag` if `fd` cannot be polled (e.g. /dev/null).
  ProxyEpoll(int fd, unsigned epoll_events, const char* flag);
  int Get() const { return epfd_.Get(); }
  // Consumes the readiness report; true if the inner fd is ready.
  bool TakeReady() const;

 private:
  UniqueFd epfd_;
};

}  // namespace pm
