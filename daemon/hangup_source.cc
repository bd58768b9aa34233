#include "daemon/hangup_source.hh"

#include <sys/stat.h>

namespace pm {

bool HangupSource::CanWatch(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
}

HangupSource::HangupSource(uv_loop_t& loop, Handler& handler, int fd)
    : PollWatcher(loop), handler_(handler), proxy_(fd, 0, "stdout") {
  Watch(proxy_.Get(), UV_READABLE);
}

void HangupSource::OnPoll(int status, int) noexcept {
  if (status == 0 && !proxy_.TakeReady()) return;
  Stop();  // level-triggered: once is enough
  handler_.OnHangup();
}

}  // namespace pm
