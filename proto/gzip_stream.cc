#include "proto/gzip_stream.hh"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>

#include "common/error.hh"

namespace pm {
namespace {

// Big enough that one sample line and its flush marker always fit: one sink
// Write per Flush.
constexpr size_t kOutSize = 64 * 1024;
constexpr int kGzipWindowBits = kGzipWindowLog + 16;  // with the gzip wrapper
constexpr int kGunzipWindowBits = 15 + 32;    // auto-detect gzip/zlib header

[[noreturn]] void ThrowInitError(int rc, const char* what) {
  if (rc == Z_MEM_ERROR) throw std::bad_alloc();
  throw std::runtime_error(std::string(what) + " failed: " + zError(rc));
}

}  // namespace

GzipOutputStream::GzipOutputStream(OutputStream& sink, int level, int first_level, int flush)
    : sink_(sink), out_(new Bytef[kOutSize]), level_after_first_flush_(level), flush_mode_(flush) {
  int rc = deflateInit2(&strm_, first_level, Z_DEFLATED, kGzipWindowBits, kGzipMemLevel,
                        Z_DEFAULT_STRATEGY);
  if (rc != Z_OK) ThrowInitError(rc, "deflateInit2");
}

GzipOutputStream::~GzipOutputStream() { deflateEnd(&strm_); }

void GzipOutputStream::Write(std::string_view bytes) {
  if (finished_) throw std::logic_error("gzip: Write after Finish");
  // avail_in is 32 bits wide.
  constexpr size_t kMaxChunk = size_t{1} << 30;
  while (!bytes.empty()) {
    std::string_view chunk = bytes.substr(0, kMaxChunk);
    bytes.remove_prefix(chunk.size());
    // next_in is non-const only for zlib's old API; deflate never writes it.
    strm_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(chunk.data()));
    strm_.avail_in = static_cast<uInt>(chunk.size());
    Deflate(Z_NO_FLUSH);
  }
}

void GzipOutputStream::Flush() {
  if (finished_) throw std::logic_error("gzip: Flush after Finish");
  Deflate(flush_mode_);
  Drain();
  sink_.Flush();
  if (!flushed_) {
    flushed_ = true;
    // At a block boundary with no input pending: nothing is emitted (were
    // anything, it would go out with the next flush).
    strm_.next_out = out_.get();
    strm_.avail_out = static_cast<uInt>(kOutSize);
    int rc = deflateParams(&strm_, level_after_first_flush_, Z_DEFAULT_STRATEGY);
    if (rc != Z_OK) throw std::logic_error(std::string("gzip: deflateParams: ") + zError(rc));
    out_len_ = kOutSize - strm_.avail_out;
  }
}

void GzipOutputStream::Finish() {
  if (finished_) throw std::logic_error("gzip: Finish twice");
  finished_ = true;
  Deflate(Z_FINISH);
  Drain();
  sink_.Finish();
}

// Runs deflate until `mode` is satisfied, draining the buffer only when it
// is full, so a Write usually leaves its output in out_ for the next Flush.
void GzipOutputStream::Deflate(int mode) {
  for (;;) {
    if (out_len_ == kOutSize) Drain();
    strm_.next_out = out_.get() + out_len_;
    strm_.avail_out = static_cast<uInt>(kOutSize - out_len_);
    int rc = deflate(&strm_, mode);
    out_len_ = kOutSize - strm_.avail_out;
    if (rc == Z_STREAM_ERROR) throw std::logic_error("gzip: deflate state");
    if (mode == Z_FINISH ? rc == Z_STREAM_END
        : mode == Z_NO_FLUSH ? strm_.avail_in == 0
                             : strm_.avail_out != 0)
      return;
  }
}

void GzipOutputStream::Drain() {
  if (out_len_ == 0) return;
  sink_.Write({reinterpret_cast<const char*>(out_.get()), out_len_});
  out_len_ = 0;
}

GzipInputStream::GzipInputStream(InputStream& source,
                                 std::string_view already_read)
    : in_(source, already_read) {
  int rc = inflateInit2(&strm_, kGunzipWindowBits);
  if (rc != Z_OK) ThrowInitError(rc, "inflateInit2");
}

GzipInputStream::~GzipInputStream() { inflateEnd(&strm_); }

size_t GzipInputStream::Read(std::span<char> buf) {
  if (!deferred_error_.empty()) throw FormatError(deferred_error_);
  if (buf.empty()) return 0;
  buf = buf.first(std::min<size_t>(buf.size(), uInt{1} << 30));  // 32-bit
  for (;;) {
    if (strm_.avail_in == 0 && !in_.eof()) {
      std::string_view next = in_.Refill();
      strm_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(next.data()));
      strm_.avail_in = static_cast<uInt>(next.size());
    }
    if (strm_.avail_in > 0) in_member_ = true;
    strm_.next_out = reinterpret_cast<Bytef*>(buf.data());
    strm_.avail_out = static_cast<uInt>(buf.size());
    // Called even without input: inflate may still hold output for us.
    int rc = inflate(&strm_, Z_NO_FLUSH);
    size_t produced = buf.size() - strm_.avail_out;
    if (rc == Z_STREAM_END) {
      in_member_ = false;
      inflateReset(&strm_);
    } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
      std::string error = CorruptMessage(strm_.msg ? strm_.msg : "bad data");
      if (produced == 0) throw FormatError(error);
      deferred_error_ = std::move(error);
    } else if (rc == Z_MEM_ERROR) {
      throw std::bad_alloc();
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      throw std::logic_error("gzip: inflate state");
    }
    if (produced > 0) return produced;
    if (strm_.avail_in == 0 && in_.eof()) {
      truncated_ = in_member_;
      return 0;
    }
  }
}

std::string GzipInputStream::CorruptMessage(const char* why) const {
  return "corrupt gzip data at byte " +
         std::to_string(in_.total() - strm_.avail_in) + ": " + why;
}

}  // namespace pm
