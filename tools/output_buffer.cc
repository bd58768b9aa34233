#include "tools/output_buffer.hh"

#include <exception>

#include "common/io.hh"

namespace pm {

OutputBuffer::OutputBuffer(int fd, size_t flush_at) : fd_(fd), flush_at_(flush_at) {
  buf_.reserve(flush_at + (flush_at >> 2));
}

OutputBuffer::~OutputBuffer() {
  try {
    Flush();
  } catch (const std::exception&) {
    // Unwinding from another error already; that one is reported.
  }
}

void OutputBuffer::Flush() {
  if (buf_.empty()) return;
  std::string pending;
  pending.swap(buf_);  // a failed write is not retried by the destructor
  WriteAll(fd_, pending);
  pending.clear();
  buf_.swap(pending);  // keep the capacity
}

}  // namespace pm
