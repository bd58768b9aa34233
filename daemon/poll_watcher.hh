// One uv_poll_t watching one fd, as the base of every event source.
//
// The watcher does not own the fd (its subclass does, and must keep it open
// until Close()). The uv handle lives inside this object, so the object must
// outlive the handle: call Close() and let the loop run its close callbacks
// before destroying it (Recorder does this for all its sources).
// OnPoll is noexcept: a source hands errors to its handler, never throws
// through libuv.
#pragma once

#include <uv.h>

namespace pm {

class PollWatcher {
 public:
  explicit PollWatcher(uv_loop_t& loop) : loop_(loop) {}
  PollWatcher(const PollWatcher&) = delete;
  PollWatcher& operator=(const PollWatcher&) = delete;
  virtual ~PollWatcher() = default;

  // Watches `fd` for UV_READABLE / UV_WRITABLE (the first call binds the
  // handle to the fd). Throws std::system_error.
  void Watch(int fd, int uv_events);
  void Stop() noexcept;
  void Close() noexcept;      // idempotent
  bool closed() const noexcept { return closing_; }

 protected:
  // `status` < 0 is a libuv error (e.g. UV_EBADF).
  virtual void OnPoll(int status, int uv_events) noexcept = 0;

 private:
  static void Callback(uv_poll_t* handle, int status, int events);
  uv_loop_t& loop_;
  uv_poll_t handle_;
  bool initialized_ = false;
  bool closing_ = false;
};

}  // namespace pm
