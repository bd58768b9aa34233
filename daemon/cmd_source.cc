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
  ended_ = true;
  Close();
  Deliver();
}

void CmdSource::Deliver() noexcept {
  while (next_ < lines_.size()) {
    if (paused_) return;
    handler_.OnCommand(lines_[next_++]);
  }
  lines_.clear();
  next_ = 0;
  if (ended_ && !eof_reported_) {
    eof_reported_ = true;
    handler_.OnCmdEof();
  }
}

void CmdSource::Pause() noexcept {
  if (paused_) return;
  paused_ = true;
  PollWatcher::Stop();
}

void CmdSource::Resume() noexcept {
  if (!paused_) return;
  paused_ = false;
  Deliver();
  if (paused_ || ended_ || closed()) return;
  try {
    Watch(proxy_.Get(), UV_READABLE);
  } catch (const std::exception&) {
    ended_ = true;  // cannot listen again: as if the input ended
    Deliver();
  }
}

}  // namespace pm
