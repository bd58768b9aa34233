// The compressed side of a decompressor: one fixed buffer refilled from the
// source, so memory stays flat whatever the input size. It starts with the
// bytes MakeDecompressor already read to detect the codec.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <utility>

#include "proto/stream.hh"

namespace pm {

class InputBuffer {
 public:
  static constexpr size_t kSize = 64 * 1024;

  InputBuffer(InputStream& source, std::string_view already_read)
      : source_(source),
        data_(new char[kSize]),
        pending_(already_read.size()),
        total_(already_read.size()) {
    std::memcpy(data_.get(), already_read.data(), already_read.size());
  }

  // The next bytes of the source, replacing the previous ones; empty at EOF.
  std::string_view Refill() {
    size_t n = std::exchange(pending_, 0);
    if (n == 0 && !eof_) {
      n = source_.Read({data_.get(), kSize});
      total_ += n;
      eof_ = n == 0;
    }
    return {data_.get(), n};
  }

  bool eof() const { return eof_; }
  // Bytes taken from the source so far: with the unconsumed count, the
  // offset of a decoding error in the compressed input.
  uint64_t total() const { return total_; }

 private:
  InputStream& source_;
  std::unique_ptr<char[]> data_;
  size_t pending_;
  uint64_t total_;
  bool eof_ = false;
};

}  // namespace pm
