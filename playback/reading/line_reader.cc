#include "playback/reading/line_reader.hh"

#include <algorithm>
#include <cstring>
#include <string>

#include "common/error.hh"

namespace pm {
namespace {

constexpr size_t kInitialCapacity = 64 * 1024;

const char* FindNewline(const char* from, size_t length) {
  return static_cast<const char*>(std::memchr(from, '\n', length));
}

}  // namespace

LineReader::LineReader(InputStream& in, size_t max_line)
    : in_(in),
      max_line_(max_line),
      capacity_(std::min(kInitialCapacity, max_line + 1)) {
  buf_.reset(new char[capacity_]);
}

// The buffer's unreturned bytes come first, then those of the view.
std::optional<std::string_view> LineReader::Next() {
  for (;;) {
    if (!view_.empty()) {
      const char* nl = FindNewline(view_.data(), view_.size());
      size_t length = nl ? static_cast<size_t>(nl - view_.data()) : view_.size();
      if (nl && begin_ == end_) {  // the whole line in the view
        std::string_view line = Take(view_.data(), length);
        view_ = view_.subspan(length + 1);
        return line;
      }
      CheckLength(end_ - begin_ + length);  // the buffer never holds more than a line
      std::memcpy(Room(length), view_.data(), length);
      end_ += length;
      view_ = view_.subspan(length + (nl ? 1 : 0));
      if (nl) {  // the line's start was in the buffer
        std::string_view line = Take(buf_.get() + begin_, end_ - begin_);
        begin_ = scanned_ = end_ = 0;
        return line;
      }
    } else if (const char* nl = FindNewline(buf_.get() + scanned_, end_ - scanned_)) {
      size_t nl_at = static_cast<size_t>(nl - buf_.get());
      std::string_view line = Take(buf_.get() + begin_, nl_at - begin_);
      begin_ = scanned_ = nl_at + 1;
      return line;
    } else {
      scanned_ = end_;
      if (!Fill()) {
        partial_tail_ = begin_ < end_;
        return std::nullopt;
      }
    }
  }
}

std::string_view LineReader::Take(const char* begin, size_t length) {
  CheckLength(length);
  line_offset_ = consumed_;
  consumed_ += length + 1;
  ++line_number_;
  return {begin, length};
}

void LineReader::CheckLength(size_t length) const {
  if (length > max_line_)
    throw FormatError("line " + std::to_string(line_number_ + 1) + " (at byte " +
                      std::to_string(consumed_) + ") is longer than " +
                      std::to_string(max_line_) + " bytes");
}

// Reads on: into the buffer after its unreturned bytes, or a view of the
// stream's own memory (view_). False at EOF.
bool LineReader::Fill() {
  if (eof_) return false;
  CheckLength(end_ - begin_);
  char* room = Room(1);
  std::span<const char> got = in_.Borrow({room, capacity_ - end_});
  if (got.empty()) {
    eof_ = true;
    return false;
  }
  if (got.data() == room) {
    end_ += got.size();
  } else {
    view_ = got;
  }
  return true;
}

// At least `bytes` free after the unreturned bytes: moved to the front,
// or a bigger buffer (never over max_line + 1: a line of exactly
// max_line bytes still needs room for its "\n"). Where they begin.
char* LineReader::Room(size_t bytes) {
  size_t pending = end_ - begin_;
  if (capacity_ - end_ < bytes && begin_ > 0) {
    std::memmove(buf_.get(), buf_.get() + begin_, pending);
    scanned_ -= begin_;
    begin_ = 0;
    end_ = pending;
  }
  if (capacity_ - end_ < bytes) {
    size_t grown = std::max(std::min(capacity_ * 2, max_line_ + 1), end_ + bytes);
    std::unique_ptr<char[]> bigger(new char[grown]);
    std::memcpy(bigger.get(), buf_.get(), end_);
    buf_ = std::move(bigger);
    capacity_ = grown;
  }
  return buf_.get() + end_;
}

}  // namespace pm
