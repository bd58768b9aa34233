// Splits a byte stream into "\n"-terminated lines, streaming, with one
// reusable buffer that grows only as far as the longest line (capped).
//
// Where the stream hands out views of its own memory (InputStream::
// Borrow: summary's and play's read-ahead thread), a line that lies whole
// in one view is returned from there, not copied: only the lines that
// straddle two views are put together in the buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>

#include "proto/stream.hh"

namespace pm {

// A recording line is a sample (KiBs) or the header (with user metadata);
// anything this long is garbage, not a line.
inline constexpr size_t kMaxLineLength = 64 * 1024 * 1024;

class LineReader {
 public:
  explicit LineReader(InputStream& in, size_t max_line = kMaxLineLength);

  // The next complete line, without its "\n"; valid until the next call.
  // nullopt at end of input: bytes after the last "\n" are never returned
  // (a writer cut mid-line), see partial_tail(). Throws FormatError for a
  // line longer than max_line.
  std::optional<std::string_view> Next();

  // After Next() returned nullopt: the input ended with bytes and no "\n".
  bool partial_tail() const { return partial_tail_; }
  // 1-based number of the line Next() returned last.
  uint64_t line_number() const { return line_number_; }
  // Offset of that line's first byte in the (decompressed) input.
  uint64_t line_offset() const { return line_offset_; }

 private:
  std::string_view Take(const char* begin, size_t length);
  void CheckLength(size_t length) const;
  bool Fill();
  char* Room(size_t bytes);

  InputStream& in_;
  size_t max_line_;
  std::unique_ptr<char[]> buf_;
  size_t capacity_;
  size_t begin_ = 0;    // unreturned bytes are [begin_, end_)
  size_t end_ = 0;
  size_t scanned_ = 0;  // [begin_, scanned_) holds no "\n"
  std::span<const char> view_;  // a borrowed view's unreturned bytes, after the buffer's
  uint64_t consumed_ = 0;  // input offset of the first unreturned byte
  uint64_t line_number_ = 0;
  uint64_t line_offset_ = 0;
  bool eof_ = false;
  bool partial_tail_ = false;
};

}  // namespace pm
