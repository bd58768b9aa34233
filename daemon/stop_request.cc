#include "daemon/stop_request.hh"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

#include "common/error.hh"

namespace pm {
namespace {

UniqueFd MakeEventFd() {
  int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0) throw SystemError("eventfd");
  return UniqueFd::Adopt(fd);
}

}  // namespace

StopRequest::StopRequest(uv_loop_t& loop, Handler& handler)
    : PollWatcher(loop), handler_(handler), fd_(MakeEventFd()) {
  Watch(fd_.Get(), UV_READABLE);
}

void StopRequest::Request() noexcept {
  uint64_t one = 1;
  // Cannot fail short of a counter overflow, which a later request shares.
  [[maybe_unused]] ssize_t n = ::write(fd_.Get(), &one, sizeof one);
}

void StopRequest::OnPoll(int, int) noexcept {
  uint64_t count;
  [[maybe_unused]] ssize_t n = ::read(fd_.Get(), &count, sizeof count);
  Stop();
  handler_.OnStopRequest();
}

}  // namespace pm
