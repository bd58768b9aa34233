#include "proto/gzip_stream.hh"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/error.hh"
#include "proto/crc32.hh"

namespace pm {
namespace {

// Big enough that one sample line and its flush marker always fit: one sink
// Write per Flush.
constexpr size_t kOutSize = 64 * 1024;
constexpr int kGzipWindowBits = kGzipWindowLog + 16;  // with the gzip wrapper
constexpr int kGunzipWindowBits = 15 + 16;    // gzip's header and trailer

std::string Corrupt(uint64_t at, std::string_view why) {
  return "corrupt gzip data at byte " + std::to_string(at) + ": " + std::string(why);
}

// The reader's half of DeferChecks: zlib's checks, with its messages at
// the bytes where zlib would have noticed (after the CRC, after the size).
class GzipCheck final : public DeferredCheck {
 public:
  void Add(std::span<const char> bytes) override {
    crc_ = Crc32(crc_, bytes);
    size_ += static_cast<uint32_t>(bytes.size());
  }
  void At(const CheckPoint& point) override {
    if (point.kind == CheckPoint::Kind::kStart) {
      crc_ = point.crc;
      size_ = point.size;
      return;
    }
    if (crc_ != point.crc) throw FormatError(Corrupt(point.in_end - 4, "incorrect data check"));
    if (point.kind == CheckPoint::Kind::kEnd && size_ != point.size)
      throw FormatError(Corrupt(point.in_end, "incorrect length check"));
  }

 private:
  uint32_t crc_ = 0;
  uint32_t size_ = 0;
};

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
  StartMember();
}

GzipInputStream::~GzipInputStream() { inflateEnd(&strm_); }

size_t GzipInputStream::Read(std::span<char> buf) {
  if (!deferred_error_.empty()) throw FormatError(deferred_error_);
  if (buf.empty()) return 0;
  buf = buf.first(std::min<size_t>(buf.size(), uInt{1} << 30));  // 32-bit
  for (;;) {
    if (strm_.avail_in == 0 && !in_.eof()) Refill();
    if (strm_.avail_in > 0) in_member_ = true;
    strm_.next_out = reinterpret_cast<Bytef*>(buf.data());
    strm_.avail_out = static_cast<uInt>(buf.size());
    // Called even without input: inflate may still hold output for us.
    int rc = inflate(&strm_, Z_NO_FLUSH);
    size_t produced = buf.size() - strm_.avail_out;
    if (deferred_) HandOver(produced);
    AfterInflate(rc, produced);
    out_total_ += produced;
    if (produced > 0) return produced;
    if (strm_.avail_in == 0 && in_.eof()) {
      if (in_member_ && !truncated_ && !zlib_checks_) CutInTrailer();  // once
      truncated_ = in_member_;
      return 0;
    }
  }
}

void GzipInputStream::Refill() {
  std::string_view next = in_.Refill();
  strm_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(next.data()));
  strm_.avail_in = static_cast<uInt>(next.size());
}

// What inflate's `rc` means, `produced` bytes out: a member's end (its
// trailer a check point where zlib did not check it), or an error, thrown
// now or deferred until the bytes before it are read.
void GzipInputStream::AfterInflate(int rc, size_t produced) {
  if (rc == Z_STREAM_END) {
    in_member_ = false;
    if (!zlib_checks_) {
      CheckPoint end = Trailer();
      end.at = out_total_ + produced;
      points_.Push(end);
    }
    inflateReset(&strm_);
    StartMember();
  } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT) {
    std::string error = CorruptMessage(strm_.msg ? strm_.msg : "bad data");
    if (produced == 0) throw FormatError(error);
    deferred_error_ = std::move(error);
  } else if (rc == Z_MEM_ERROR) {
    throw std::bad_alloc();
  } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
    throw std::logic_error("gzip: inflate state");
  }
}

std::string GzipInputStream::CorruptMessage(const char* why) const {
  return Corrupt(in_.total() - strm_.avail_in, why);
}

// zlib checks a member's header and, from there, its bytes until
// HandOver() stops it.
void GzipInputStream::StartMember() {
  zlib_checks_ = true;
  if (inflateValidate(&strm_, 1) != Z_OK || inflateGetHeader(&strm_, &header_) != Z_OK)
    throw std::logic_error("gzip: inflate state");
}

// Deferred: once the member's header is read, zlib stops checking and
// the reader starts, with the CRC zlib has of the bytes inflated so far.
void GzipInputStream::HandOver(size_t produced) {
  if (!zlib_checks_ || header_.done != 1) return;
  if (inflateValidate(&strm_, 0) != Z_OK) throw std::logic_error("gzip: inflate state");
  zlib_checks_ = false;
  CheckPoint start;
  start.kind = CheckPoint::Kind::kStart;
  start.at = out_total_ + produced;
  start.crc = strm_.total_out == 0 ? 0 : static_cast<uint32_t>(strm_.adler);
  start.size = static_cast<uint32_t>(strm_.total_out);
  points_.Push(start);
}

// At a member's end: its trailer (CRC-32, then size, little-endian) is the
// 8 bytes inflate read last.
CheckPoint GzipInputStream::Trailer() const { return TrailerEndingAt(8); }

// The trailer whose first `read` bytes are the last bytes inflate read;
// `read` >= 4 (its CRC), the size counts only when all 8 are.
CheckPoint GzipInputStream::TrailerEndingAt(size_t read) const {
  char trailer[8] = {};
  in_.LastRead(strm_.avail_in, std::span(trailer, read));
  CheckPoint end;
  end.crc = LittleEndian32(trailer);
  end.size = LittleEndian32(trailer + 4);
  end.in_end = in_.total() - strm_.avail_in - read + 8;
  return end;
}

// The input ended inside a member the reader checks. zlib would still
// have checked its CRC had the input ended inside the trailer after it: a
// copy of the decoder given 8 more bytes tells. Only the trailer ends a
// member within 8 bytes (the end of the last block and its padding take
// one more), and what it took of them is what the trailer lacked.
void GzipInputStream::CutInTrailer() {
  z_stream copy;
  if (int rc = inflateCopy(&copy, &strm_); rc != Z_OK) ThrowInitError(rc, "inflateCopy");
  unsigned char more[8] = {}, out[64];
  copy.next_in = more;
  copy.avail_in = sizeof more;
  copy.next_out = out;
  copy.avail_out = sizeof out;
  int rc = inflate(&copy, Z_NO_FLUSH);
  size_t lacked = sizeof more - copy.avail_in;
  inflateEnd(&copy);
  if (rc != Z_STREAM_END || lacked > 4) return;
  CheckPoint cut = TrailerEndingAt(8 - lacked);
  cut.kind = CheckPoint::Kind::kCut;
  cut.at = out_total_;
  points_.Push(cut);
}

std::unique_ptr<DeferredCheck> GzipInputStream::DeferChecks() {
  if (deferred_) throw std::logic_error("gzip: DeferChecks twice");
  deferred_ = true;
  out_total_ = 0;
  HandOver(0);  // a member in the middle: from here
  return std::make_unique<GzipCheck>();
}

bool GzipInputStream::TakeCheckPoint(CheckPoint& point) { return points_.Take(point); }

}  // namespace pm
