// A source that hands out one byte per Read: a pipe at its slowest.
#pragma once

#include <span>
#include <string_view>

#include "proto/stream.hh"

namespace pm::test {

class OneByteInput final : public InputStream {
 public:
  explicit OneByteInput(std::string_view bytes) : rest_(bytes) {}
  size_t Read(std::span<char> buf) override {
    if (rest_.empty() || buf.empty()) return 0;
    buf[0] = rest_[0];
    rest_.remove_prefix(1);
    return 1;
  }

 private:
  std::string_view rest_;
};

}  // namespace pm::test
