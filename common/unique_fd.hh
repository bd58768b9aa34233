// Owning file descriptors as a move-only type.
//
// A UniqueFd closes its descriptor in its destructor. Raw ints are adopted
// explicitly (UniqueFd::Adopt) once, at the place that proved they are ours;
// Release() hands ownership back out. Every fd this project creates is
// CLOEXEC from birth (see MakePipe, OpenAt in io.hh).
#pragma once

#include <unistd.h>

#include <utility>

namespace pm {

class UniqueFd {
 public:
  UniqueFd() noexcept = default;
  static UniqueFd Adopt(int fd) noexcept { return UniqueFd(fd); }

  UniqueFd(UniqueFd&& other) noexcept : fd_(other.Release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) Reset(other.Release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { Reset(); }

  int Get() const noexcept { return fd_; }
  bool IsValid() const noexcept { return fd_ >= 0; }
  explicit operator bool() const noexcept { return IsValid(); }

  int Release() noexcept { return std::exchange(fd_, -1); }
  void Reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  int fd_ = -1;
};

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

}  // namespace pm
