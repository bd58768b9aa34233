// The command `perfmonger stat` runs, watched through its pidfd: the pidfd
// turns readable when the process exits, an event on the loop like any
// other (no SIGCHLD handler, no uv_spawn).
//
// Owns the pidfd. Does not reap: the exit status belongs to whoever spawned
// the process (tools/record/stat_cli.cc), which waits for it once the recording
// is closed.
#pragma once

#include "common/unique_fd.hh"
#include "daemon/poll_watcher.hh"

namespace pm {

class ChildSource final : public PollWatcher {
 public:
  class Handler {
   public:
    virtual void OnChildExit() noexcept = 0;

   protected:
    ~Handler() = default;
  };

  ChildSource(uv_loop_t& loop, Handler& handler, UniqueFd pidfd);

  // Passes a signal on (SIGINT, SIGTERM sent to the recorder). A process
  // that has already exited is not an error.
  void Signal(int signo) noexcept;

 private:
  void OnPoll(int status, int events) noexcept override;

  Handler& handler_;
  UniqueFd pidfd_;
  bool exited_ = false;
};

}  // namespace pm
