// The ready fd: written once with the ready line, then closed. A stdio
// number (1, 2) is not freed but pointed at /dev/null, so that nothing
// opened later takes it and messages meant for stderr never land in a file.
//
// Owns the inherited fd. Written with one plain blocking write (the line is
// far below PIPE_BUF, so it is atomic and fits an empty pipe); its flags are
// never changed. A reader that has gone away (EPIPE) is noted, not fatal:
// the stop fd, not the ready fd, decides how long the recording lasts.
#pragma once

#include <string_view>

#include "common/unique_fd.hh"

namespace pm {

class ReadyFd {
 public:
  ReadyFd() = default;
  explicit ReadyFd(UniqueFd fd) : fd_(std::move(fd)) {}

  bool wired() const { return fd_.IsValid(); }
  // Writes the line (if wired) and closes the fd.
  void SendAndClose(std::string_view line) noexcept;
  void Close() noexcept;

 private:
  UniqueFd fd_;
};

}  // namespace pm
