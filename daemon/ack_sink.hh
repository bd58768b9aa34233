// The ack fd (--ack-fd): one reply line per command, written without ever
// blocking the sampler and without changing the parent's flags.
//
// Owns the fd. A pipe or FIFO is reopened through /proc/self/fd/N with
// O_NONBLOCK, which makes a new open file description private to us; a
// socket is written with send(MSG_DONTWAIT) and watched through a
// ProxyEpoll; a regular file takes plain writes. Replies that do not fit
// now wait in a bounded queue until the fd is writable. A reader that has
// gone (EPIPE), or one that stops reading until the queue overflows, turns
// acks off with one note on stderr; the recording goes on.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/unique_fd.hh"
#include "daemon/poll_watcher.hh"
#include "daemon/proxy_epoll.hh"

namespace pm {

class AckSink final : public PollWatcher {
 public:
  static constexpr size_t kMaxQueued = 64 * 1024;

  // Throws UsageError naming `flag` if the fd cannot be used.
  AckSink(uv_loop_t& loop, UniqueFd fd, const char* flag);

  void Send(std::string_view reply) noexcept;
  bool enabled() const { return enabled_; }

 private:
  enum class Kind { kPipe, kSocket, kFile };

  void OnPoll(int status, int events) noexcept override;
  void Drain() noexcept;
  ssize_t WriteSome(std::string_view bytes) noexcept;
  void Disable(const char* why) noexcept;

  Kind kind_;
  UniqueFd fd_;
  std::optional<ProxyEpoll> proxy_;  // sockets only
  std::string queue_;
  bool watching_ = false;
  bool enabled_ = true;
};

}  // namespace pm
