// Standard output in large writes: `play` appends its lines to buffer()
// and the writes happen a megabyte at a time. A failed write throws
// std::system_error (EPIPE when the reader went away; SIGPIPE is ignored).
#pragma once

#include <string>

namespace pm {

class OutputBuffer {
 public:
  explicit OutputBuffer(int fd, size_t flush_at = 1 << 20);
  ~OutputBuffer();  // writes what is left, ignoring errors (prefer Flush())

  std::string& buffer() { return buf_; }
  void MaybeFlush() {
    if (buf_.size() >= flush_at_) Flush();
  }
  void Flush();  // throws std::system_error

 private:
  int fd_;
  size_t flush_at_;
  std::string buf_;
};

}  // namespace pm
