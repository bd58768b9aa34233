#include "daemon/ack_sink.hh"

#include <fcntl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

#include "common/error.hh"

namespace pm {
namespace {

// A new open file description of the same pipe: O_NONBLOCK on it is ours.
UniqueFd ReopenNonblocking(int fd, const char* flag) {
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  int reopened = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
  if (reopened < 0)
    throw UsageError(std::string(flag) + "=" + std::to_string(fd) +
                     ": cannot reopen the pipe for non-blocking writes (" +
                     std::strerror(errno) + "); is its read end still open?");
  return UniqueFd::Adopt(reopened);
}

}  // namespace

AckSink::AckSink(uv_loop_t& loop, Handler& handler, UniqueFd fd, const char* flag)
    : PollWatcher(loop), handler_(handler) {
  struct stat st;
  if (fstat(fd.Get(), &st) != 0) throw SystemError(flag);
  if (S_ISSOCK(st.st_mode)) {
    kind_ = Kind::kSocket;
    fd_ = std::move(fd);
    proxy_.emplace(fd_.Get(), EPOLLOUT, flag);
  } else if (S_ISREG(st.st_mode)) {
    kind_ = Kind::kFile;
    fd_ = std::move(fd);
  } else {
    kind_ = Kind::kPipe;
    fd_ = ReopenNonblocking(fd.Get(), flag);
  }
}

void AckSink::Send(std::string_view reply) noexcept {
  if (!enabled_) return;
  if (queue_.empty()) {
    ssize_t n = WriteSome(reply);
    if (n < 0) return;
    reply.remove_prefix(static_cast<size_t>(n));
    if (reply.empty()) return;
  }
  queue_.append(reply);
  if (!watching_) {
    try {
      Watch(proxy_ ? proxy_->Get() : fd_.Get(), UV_WRITABLE);
      watching_ = true;
    } catch (const std::exception&) {
      Disable("it cannot be watched");
    }
  }
}

void AckSink::OnPoll(int status, int) noexcept {
  if (status < 0) return Disable("it failed");
  if (proxy_ && !proxy_->TakeReady()) return;
  Drain();
}

void AckSink::Drain() noexcept {
  while (enabled_ && !queue_.empty()) {
    ssize_t n = WriteSome(queue_);
    if (n <= 0) return;  // EAGAIN: wait for the next writable event
    queue_.erase(0, static_cast<size_t>(n));
  }
  if (watching_) {
    PollWatcher::Stop();
    watching_ = false;
  }
  if (enabled_) handler_.OnAckDrained();
}

void AckSink::DrainAndClose(int timeout_ms) noexcept {
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  while (enabled_ && !queue_.empty()) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    long spent = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1'000'000;
    if (spent >= timeout_ms) {
      Disable("its reader did not take the last replies");
      break;
    }
    struct pollfd p = {fd_.Get(), POLLOUT, 0};
    if (poll(&p, 1, static_cast<int>(timeout_ms - spent)) < 0 && errno != EINTR) break;
    ssize_t n = WriteSome(queue_);
    if (n > 0) queue_.erase(0, static_cast<size_t>(n));
  }
  Close();
}

// Bytes written, 0 when the fd is full, -1 after disabling.
ssize_t AckSink::WriteSome(std::string_view bytes) noexcept {
  for (;;) {
    ssize_t n = kind_ == Kind::kSocket
                    ? ::send(fd_.Get(), bytes.data(), bytes.size(), MSG_DONTWAIT | MSG_NOSIGNAL)
                    : ::write(fd_.Get(), bytes.data(), bytes.size());
    if (n >= 0) return n;
    if (errno == EINTR) continue;
    if (errno == EAGAIN) return 0;
    Disable(errno == EPIPE ? "its reader has gone" : std::strerror(errno));
    return -1;
  }
}

void AckSink::Disable(const char* why) noexcept {
  if (!enabled_) return;
  enabled_ = false;
  queue_.clear();
  std::fprintf(stderr,
               "perfmonger record: note: acks are off (%s); the recording goes on\n", why);
  Close();
  handler_.OnAckDrained();  // nothing waits any more: commands may flow
}

}  // namespace pm
