#include "daemon/proxy_epoll.hh"

#include <sys/epoll.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "common/error.hh"

namespace pm {

ProxyEpoll::ProxyEpoll(int fd, unsigned epoll_events, const char* flag)
    : epfd_(UniqueFd::Adopt(epoll_create1(EPOLL_CLOEXEC))) {
  if (!epfd_) throw SystemError("epoll_create1");
  struct epoll_event ev = {};
  ev.events = epoll_events;
  ev.data.fd = fd;
  if (epoll_ctl(epfd_.Get(), EPOLL_CTL_ADD, fd, &ev) != 0)
    throw UsageError(std::string(flag) + "=" + std::to_string(fd) +
                     ": fd cannot be watched (" + std::strerror(errno) +
                     "); pass a pipe, socket or terminal");
}

bool ProxyEpoll::TakeReady() const {
  struct epoll_event ev;
  int n;
  do {
    n = epoll_wait(epfd_.Get(), &ev, 1, 0);
  } while (n < 0 && errno == EINTR);
  return n > 0;
}

}  // namespace pm
