// The compressed side of a decompressor: one fixed buffer refilled from the
// source, so memory stays flat whatever the input size. It starts with the
// bytes MakeDecompressor already read to detect the codec.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
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

  // The next bytes of the source, replacing the previous ones (all read:
  // their last bytes are kept for LastRead); empty at EOF.
  std::string_view Refill() {
    KeepTail();
    size_t n = std::exchange(pending_, 0);
    if (n == 0 && !eof_) {
      n = source_.Read({data_.get(), kSize});
      total_ += n;
      eof_ = n == 0;
    }
    current_ = n;
    return {data_.get(), n};
  }

  // The last out.size() (at most kTail) bytes the decoder read, `unread`
  // bytes of the current chunk still before it: a trailer or checksum just
  // read, which may straddle chunks.
  void LastRead(size_t unread, std::span<char> out) const {
    const ptrdiff_t end = static_cast<ptrdiff_t>(current_ - unread);
    for (size_t i = 0; i < out.size(); ++i) {
      ptrdiff_t at = end - static_cast<ptrdiff_t>(out.size() - i);
      out[i] = at >= 0 ? data_[static_cast<size_t>(at)]
                       : tail_[static_cast<size_t>(static_cast<ptrdiff_t>(kTail) + at)];
    }
  }

  bool eof() const { return eof_; }
  // Bytes taken from the source so far: with the unconsumed count, the
  // offset of a decoding error in the compressed input.
  uint64_t total() const { return total_; }

 private:
  static constexpr size_t kTail = 8;  // a gzip trailer

  void KeepTail() {
    size_t keep = std::min(current_, kTail);
    std::memmove(tail_, tail_ + keep, kTail - keep);
    if (keep > 0) std::memcpy(tail_ + kTail - keep, data_.get() + current_ - keep, keep);
  }

  InputStream& source_;
  std::unique_ptr<char[]> data_;
  size_t pending_;
  size_t current_ = 0;  // the bytes of the chunk Refill returned last
  char tail_[kTail] = {};  // the bytes before it
  uint64_t total_;
  bool eof_ = false;
};

// A trailer's numbers (gzip's CRC and size, zstd's magic and checksum).
inline uint32_t LittleEndian32(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return b[0] | uint32_t{b[1]} << 8 | uint32_t{b[2]} << 16 | uint32_t{b[3]} << 24;
}

}  // namespace pm
