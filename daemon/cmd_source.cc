#include "daemon/cmd_source.hh"

#include <sys/epoll.h>

#include <cerrno>

#include "common/io.hh"

namespace pm {

CmdSource::CmdSource(uv_loop_t& loop, Handler& handler, UniqueFd fd, const char* flag)
    : PollWatcher(loop), handler_(handler), fd_(std::move(fd)), proxy_(fd_.Get(), EPOLLIN, flag) {
  Watch(proxy_.Get(), UV_READABLE);
}

void CmdSource::OnPoll(int status, int) noexcept {
  if (status >= 0 && !proxy_.TakeReady()) return;
  char buf[4096];
  ssize_t n = status < 0 ? -1 : ReadAvailable(fd_.Get(), buf, sizeof buf);
  if (n < 0 && errno == EAGAIN) return;
  if (n > 0) {
    decoder_.Feed({buf, static_cast<size_t>(n)}, lines_);
    return Deliver();
  }
  decoder_.Finish(lines_);  // EOF or an error: what was sent still counts
  Close();
  Deliver();
  handler_.OnCmdEof();
}

void CmdSource::Deliver() noexcept {
  for (const ParsedLine& line : lines_) handler_.OnCommand(line);
  lines_.clear();
}

}  // namespace pm
