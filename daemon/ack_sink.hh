// The ack fd (--ack-fd): one reply line per command, written without ever
// blocking the sampler and without changing the parent's flags.
//
// Owns the fd. A pipe or FIFO is reopened through /proc/self/fd/N with
// O_NONBLOCK, which makes a new open file description private to us; a
// socket is written with send(MSG_DONTWAIT) and watched through a
// ProxyEpoll; a regular file takes plain writes. Replies that do not fit
// now wait in a queue until the fd is writable.
//
// A full ack fd is back-pressure, not a gone reader: once kBacklog bytes
// wait, backlogged() is true and the Recorder stops reading commands (so
// the queue stays bounded by kBacklog plus one reply); when the queue has
// drained the handler hears OnAckDrained(). Only a reader that has gone
// (EPIPE) or an fd error turns acks off, with one note on stderr; the
// recording goes on. No reply is dropped while the reader lives.
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
  static constexpr size_t kBacklog = 16 * 1024;

  class Handler {
   public:
    virtual void OnAckDrained() noexcept = 0;

   protected:
    ~Handler() = default;
  };

  // Throws UsageError naming `flag` if the fd cannot be used.
  AckSink(uv_loop_t& loop, Handler& handler, UniqueFd fd, const char* flag);

  void Send(std::string_view reply) noexcept;
  bool enabled() const { return enabled_; }
  bool backlogged() const { return enabled_ && queue_.size() >= kBacklog; }
  // At the end: waits up to `timeout_ms` for the queue to drain (the
  // sampler has stopped, so a bounded wait costs nothing), then closes.
  void DrainAndClose(int timeout_ms) noexcept;

 private:
  enum class Kind { kPipe, kSocket, kFile };

  void OnPoll(int status, int events) noexcept override;
  void Drain() noexcept;
  ssize_t WriteSome(std::string_view bytes) noexcept;
  void Disable(const char* why) noexcept;

  Handler& handler_;
  Kind kind_;
  UniqueFd fd_;
  std::optional<ProxyEpoll> proxy_;  // sockets only
  std::string queue_;
  bool watching_ = false;
  bool enabled_ = true;
};

}  // namespace pm
