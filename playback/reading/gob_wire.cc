#include "playback/reading/gob_wire.hh"

#include <algorithm>

#include "common/error.hh"

namespace pm::gob {
namespace {

constexpr size_t kReadChunk = 64 * 1024;

// Bytes in an unsigned integer that starts with `first`.
size_t UintSize(uint8_t first, uint64_t offset) {
  if (first < 0x80) return 1;
  size_t n = 256 - first;
  if (n > 8) Fail("bad integer length byte", offset);
  return 1 + n;
}

}  // namespace

void Fail(std::string_view what, uint64_t offset) {
  throw FormatError("legacy recording: " + std::string(what) + " at byte " +
                    std::to_string(offset));
}

uint64_t WireReader::Uint() {
  if (empty()) Fail("value past the end of its message");
  size_t size = UintSize(static_cast<uint8_t>(msg_[pos_]), offset());
  if (size > remaining()) Fail("integer past the end of its message");
  uint64_t v = size == 1 ? static_cast<uint8_t>(msg_[pos_]) : 0;
  for (size_t i = 1; i < size; ++i)
    v = v << 8 | static_cast<uint8_t>(msg_[pos_ + i]);
  pos_ += size;
  return v;
}

int64_t WireReader::Int() {
  uint64_t u = Uint();
  uint64_t magnitude = u >> 1;
  return static_cast<int64_t>((u & 1) ? ~magnitude : magnitude);
}

std::string_view WireReader::Bytes() {
  uint64_t at = offset();
  uint64_t n = Uint();
  if (n > remaining())
    gob::Fail("string or byte slice past the end of its message", at);
  std::string_view out = msg_.substr(pos_, n);
  pos_ += n;
  return out;
}

size_t WireReader::Count() {
  uint64_t at = offset();
  uint64_t n = Uint();
  if (n > remaining())
    gob::Fail("element count " + std::to_string(n) + " larger than its message",
              at);
  return static_cast<size_t>(n);
}

MessageReader::Result MessageReader::Next(std::string_view& body) {
  if (!Ensure(1)) return Result::kEnd;
  size_t prefix = UintSize(static_cast<uint8_t>(buf_[begin_]), consumed_);
  if (!Ensure(prefix)) return Result::kTruncated;
  WireReader length(std::string_view(buf_).substr(begin_, prefix), consumed_);
  uint64_t n = length.Uint();
  if (n == 0) Fail("zero bytes instead of a message", consumed_);
  if (n > kMaxMessage)
    Fail("message length " + std::to_string(n) + " over the limit", consumed_);
  if (!Ensure(prefix + n)) return Result::kTruncated;
  body = std::string_view(buf_).substr(begin_ + prefix, n);
  body_offset_ = consumed_ + prefix;
  begin_ += prefix + n;
  consumed_ += prefix + n;
  return Result::kMessage;
}

bool MessageReader::Ensure(size_t n) {
  while (buf_.size() - begin_ < n) {
    if (eof_) return false;
    if (begin_ > 0) {
      buf_.erase(0, begin_);
      begin_ = 0;
    }
    size_t have = buf_.size();
    size_t want = std::max(kReadChunk, n - have);
    buf_.resize(have + want);
    size_t got = in_.Read({buf_.data() + have, want});
    buf_.resize(have + got);
    eof_ = got == 0;
  }
  return true;
}

}  // namespace pm::gob
