// A stop asked for from inside a callback (the recording observer, when
// `live` loses its stdout): an eventfd written now and read on the loop's
// next turn, so the recorder never stops in the middle of a write.
//
// Owns its eventfd.
#pragma once

#include "common/unique_fd.hh"
#include "daemon/poll_watcher.hh"

namespace pm {

class StopRequest final : public PollWatcher {
 public:
  class Handler {
   public:
    virtual void OnStopRequest() noexcept = 0;

   protected:
    ~Handler() = default;
  };

  StopRequest(uv_loop_t& loop, Handler& handler);

  void Request() noexcept;  // idempotent

 private:
  void OnPoll(int status, int events) noexcept override;

  Handler& handler_;
  UniqueFd fd_;
};

}  // namespace pm
