// Go encoding/gob at the byte level, for the legacy PerfMonger reader
// (gob_reader.hh): the stream is a sequence of messages, each an unsigned
// byte count then that many bytes. Inside a message, unsigned integers are
// one byte when < 128, else the negated byte count then big-endian bytes;
// a signed integer i travels as the unsigned i<<1 (~i<<1 | 1 when
// negative); strings and byte slices are a count then the bytes.
//
// Errors are pm::FormatError "legacy recording: WHAT at byte N", N the
// offset in the decompressed gob stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "proto/stream.hh"

namespace pm::gob {

// PerfMonger's messages are a few KiB; anything near this is garbage.
inline constexpr size_t kMaxMessage = 64 * 1024 * 1024;

[[noreturn]] void Fail(std::string_view what, uint64_t offset);

// Reads primitives from one message held in memory, bounds-checked.
class WireReader {
 public:
  // `base`: stream offset of msg[0], for error messages.
  WireReader(std::string_view msg, uint64_t base) : msg_(msg), base_(base) {}

  uint64_t Uint();
  int64_t Int();
  std::string_view Bytes();  // a count, then that many bytes
  // An element count: every gob value takes at least one byte, so a count
  // beyond the bytes left is garbage.
  size_t Count();

  size_t remaining() const { return msg_.size() - pos_; }
  bool empty() const { return pos_ == msg_.size(); }
  uint64_t offset() const { return base_ + pos_; }
  [[noreturn]] void Fail(std::string_view what) const {
    gob::Fail(what, offset());
  }

 private:
  std::string_view msg_;
  size_t pos_ = 0;
  uint64_t base_;
};

// Splits the gob stream into messages, buffering at most one message.
class MessageReader {
 public:
  explicit MessageReader(InputStream& in) : in_(in) {}

  enum class Result { kMessage, kEnd, kTruncated };
  // kMessage: `body` holds the next message (valid until the next call).
  // kEnd: the input ended between messages. kTruncated: it ended inside
  // one. Throws FormatError for a bad or oversized length.
  Result Next(std::string_view& body);
  // Stream offset of the body Next() returned last.
  uint64_t body_offset() const { return body_offset_; }

 private:
  bool Ensure(size_t n);  // n unread bytes buffered; false at end of input

  InputStream& in_;
  std::string buf_;
  size_t begin_ = 0;       // unread bytes are buf_[begin_, end)
  uint64_t consumed_ = 0;  // stream offset of buf_[begin_]
  uint64_t body_offset_ = 0;
  bool eof_ = false;
};

}  // namespace pm::gob
