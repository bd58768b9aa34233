#include "daemon/child_source.hh"

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace pm {

ChildSource::ChildSource(uv_loop_t& loop, Handler& handler, UniqueFd pidfd)
    : PollWatcher(loop), handler_(handler), pidfd_(std::move(pidfd)) {
  Watch(pidfd_.Get(), UV_READABLE);
}

void ChildSource::Signal(int signo) noexcept {
  if (exited_) return;
  // ESRCH (exited meanwhile) needs no handling: its exit event follows.
  syscall(SYS_pidfd_send_signal, pidfd_.Get(), signo, nullptr, 0);
}

void ChildSource::OnPoll(int, int) noexcept {
  // Readable or an error on a pidfd: either way the process is gone.
  if (exited_) return;
  exited_ = true;
  Stop();
  handler_.OnChildExit();
}

}  // namespace pm
