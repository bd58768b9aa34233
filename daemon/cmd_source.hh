// The command fd (--cmd-fd): bytes -> CommandDecoder -> one ParsedLine per
// non-empty line, handed to the handler in order.
//
// Owns the inherited fd, watched through a ProxyEpoll so the parent's flags
// never change. EOF or a read error ends the input (a last line without LF
// still counts) and the source stops listening; the recording goes on —
// stopping is the stop fd's job, or the `stop` command's.
//
// Pause() (called by the handler, even from OnCommand) stops delivering
// lines and reading the fd: the Recorder's back-pressure while the ack fd
// is full. Resume() delivers what was held back, then reads on.
#pragma once

#include <vector>

#include "common/unique_fd.hh"
#include "daemon/poll_watcher.hh"
#include "daemon/proxy_epoll.hh"
#include "proto/control_protocol.hh"

namespace pm {

class CmdSource final : public PollWatcher {
 public:
  class Handler {
   public:
    virtual void OnCommand(const ParsedLine& line) noexcept = 0;
    virtual void OnCmdEof() noexcept = 0;

   protected:
    ~Handler() = default;
  };

  CmdSource(uv_loop_t& loop, Handler& handler, UniqueFd fd, const char* flag);

  void Pause() noexcept;
  void Resume() noexcept;
  bool paused() const { return paused_; }

 private:
  void OnPoll(int status, int events) noexcept override;
  void Deliver() noexcept;

  Handler& handler_;
  UniqueFd fd_;
  ProxyEpoll proxy_;
  CommandDecoder decoder_;
  std::vector<ParsedLine> lines_;  // reused between reads
  size_t next_ = 0;                // lines_[next_..] are not delivered yet
  bool paused_ = false;
  bool ended_ = false;  // EOF or an error: the fd is not watched again
  bool eof_reported_ = false;
};

}  // namespace pm
