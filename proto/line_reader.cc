#include "proto/line_reader.hh"

#include <algorithm>
#include <cstring>
#include <string>

#include "common/error.hh"

namespace pm {
namespace {

constexpr size_t kInitialCapacity = 64 * 1024;

}  // namespace

LineReader::LineReader(InputStream& in, size_t max_line)
    : in_(in),
      max_line_(max_line),
      capacity_(std::min(kInitialCapacity, max_line + 1)) {
  buf_.reset(new char[capacity_]);
}

std::optional<std::string_view> LineReader::Next() {
  for (;;) {
    const char* start = buf_.get() + scanned_;
    auto* nl =
        static_cast<const char*>(std::memchr(start, '\n', end_ - scanned_));
    if (nl != nullptr) {
      size_t nl_at = static_cast<size_t>(nl - buf_.get());
      std::string_view line(buf_.get() + begin_, nl_at - begin_);
      line_offset_ = consumed_;
      consumed_ += nl_at + 1 - begin_;
      ++line_number_;
      begin_ = scanned_ = nl_at + 1;
      return line;
    }
    scanned_ = end_;
    if (!Fill()) {
      partial_tail_ = begin_ < end_;
      return std::nullopt;
    }
  }
}

// Makes room after the unreturned bytes and reads into it; false at EOF.
bool LineReader::Fill() {
  if (eof_) return false;
  size_t pending = end_ - begin_;
  if (pending > max_line_)
    throw FormatError("line " + std::to_string(line_number_ + 1) +
                      " (at byte " + std::to_string(consumed_) +
                      ") is longer than " + std::to_string(max_line_) +
                      " bytes");
  if (end_ == capacity_ && begin_ > 0) {
    std::memmove(buf_.get(), buf_.get() + begin_, pending);
    scanned_ -= begin_;
    begin_ = 0;
    end_ = pending;
  }
  if (end_ == capacity_) {
    // +1: a line of exactly max_line bytes still needs room for its "\n".
    size_t grown = std::min(capacity_ * 2, max_line_ + 1);
    std::unique_ptr<char[]> bigger(new char[grown]);
    std::memcpy(bigger.get(), buf_.get(), end_);
    buf_ = std::move(bigger);
    capacity_ = grown;
  }
  size_t n = in_.Read({buf_.get() + end_, capacity_ - end_});
  if (n == 0) eof_ = true;
  end_ += n;
  return n > 0;
}

}  // namespace pm
