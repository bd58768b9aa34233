#include "daemon/poll_watcher.hh"

#include "common/error.hh"

namespace pm {

void PollWatcher::Watch(int fd, int uv_events) {
  if (!initialized_) {
    int rc = uv_poll_init(&loop_, &handle_, fd);
    if (rc != 0) throw SystemError("uv_poll_init", -rc);
    handle_.data = this;
    initialized_ = true;
  }
  int rc = uv_poll_start(&handle_, uv_events, &PollWatcher::Callback);
  if (rc != 0) throw SystemError("uv_poll_start", -rc);
}

void PollWatcher::Stop() noexcept {
  if (initialized_ && !closing_) uv_poll_stop(&handle_);
}

void PollWatcher::Close() noexcept {
  if (closing_ || !initialized_) return;
  closing_ = true;
  uv_close(reinterpret_cast<uv_handle_t*>(&handle_), nullptr);
}

void PollWatcher::Callback(uv_poll_t* handle, int status, int events) {
  static_cast<PollWatcher*>(handle->data)->OnPoll(status, events);
}

}  // namespace pm
