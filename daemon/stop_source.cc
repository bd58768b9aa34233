#include "daemon/stop_source.hh"

#include <sys/epoll.h>

#include <cerrno>

#include "common/io.hh"

namespace pm {

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
  ssize_t n = ReadAvailable(fd_.Get(), buf, sizeof buf);
  if (n > 0 || (n < 0 && errno == EAGAIN)) return;  // bytes are ignored
  Stop();
  handler_.OnStopFd();  // EOF or a read error
}

}  // namespace pm
