#include "daemon/stop_source.hh"

#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
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

StopSource::StopSource(uv_loop_t& loop, Handler& handler, UniqueFd fd,
                       const char* flag)
    : PollWatcher(loop),
      handler_(handler),
      fd_(std::move(fd)),
      proxy_(fd_.Get(), EPOLLIN, flag) {
  Watch(proxy_.Get(), UV_READABLE);
}

void StopSource::OnPoll(int status, int) noexcept {
  if (status < 0) return handler_.OnStopFd();
  if (!proxy_.TakeReady()) return;
  char buf[4096];
  int available = 0;
  size_t want = sizeof buf;
  if (ioctl(fd_.Get(), FIONREAD, &available) == 0 && available > 0)
    want = std::min(want, static_cast<size_t>(available));
  ssize_t n = ::read(fd_.Get(), buf, want);
  if (n > 0 || (n < 0 && (errno == EINTR || errno == EAGAIN))) return;
  Stop();
  handler_.OnStopFd();  // EOF or a read error
}

}  // namespace pm
