// Byte stream interfaces. Compression is a filter between two of these
// (codec.hh): the recording encoder writes to an OutputStream, so tests
// capture the bytes in memory and the recorder writes to an fd with the
// same code.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace pm {

class OutputStream {
 public:
  virtual ~OutputStream() = default;
  // May buffer. Throws on a write error (std::system_error).
  virtual void Write(std::string_view bytes) = 0;
  // Everything written so far reaches the next stage (for a compressor: a
  // sync point a reader can decode up to), and that stage is flushed too.
  virtual void Flush() = 0;
  // End of stream (compressor trailer), then Flush(). Nothing may follow.
  virtual void Finish() = 0;
};

class InputStream {
 public:
  virtual ~InputStream() = default;
  // Reads up to buf.size() bytes; returns 0 only at end of input.
  virtual size_t Read(std::span<char> buf) = 0;
  // Reads without a copy where the stream keeps its bytes in memory: a
  // view of the next of them, valid until the next Read or Borrow; empty
  // only at the end of input. Otherwise (the default) reads into
  // `scratch` and returns the part of it read.
  virtual std::span<const char> Borrow(std::span<char> scratch) {
    return scratch.first(Read(scratch));
  }
};

// Collects everything in memory (tests, the JSON of a single line).
class StringOutputStream final : public OutputStream {
 public:
  void Write(std::string_view bytes) override { data_.append(bytes); }
  void Flush() override { ++flushes_; }
  void Finish() override { finished_ = true; }

  const std::string& data() const { return data_; }
  int flushes() const { return flushes_; }
  bool finished() const { return finished_; }

 private:
  std::string data_;
  int flushes_ = 0;
  bool finished_ = false;
};

// Reads from a byte range held by the caller.
class MemoryInputStream final : public InputStream {
 public:
  explicit MemoryInputStream(std::string_view bytes) : rest_(bytes) {}
  size_t Read(std::span<char> buf) override;
  std::span<const char> Borrow(std::span<char> scratch) override;  // the rest, whole

 private:
  std::string_view rest_;
};

// Reads an fd the caller owns (a file, a pipe, stdin), retrying EINTR.
class FdInputStream final : public InputStream {
 public:
  explicit FdInputStream(int fd) : fd_(fd) {}
  size_t Read(std::span<char> buf) override;  // throws std::system_error

 private:
  int fd_;
};

}  // namespace pm
