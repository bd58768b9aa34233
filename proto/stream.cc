#include "proto/stream.hh"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common/error.hh"

namespace pm {

size_t MemoryInputStream::Read(std::span<char> buf) {
  size_t n = std::min(buf.size(), rest_.size());
  std::memcpy(buf.data(), rest_.data(), n);
  rest_.remove_prefix(n);
  return n;
}

std::span<const char> MemoryInputStream::Borrow(std::span<char>) {
  std::span<const char> rest(rest_.data(), rest_.size());
  rest_ = {};
  return rest;
}

size_t FdInputStream::Read(std::span<char> buf) {
  for (;;) {
    ssize_t n = ::read(fd_, buf.data(), buf.size());
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) throw SystemError("read");
  }
}

}  // namespace pm
