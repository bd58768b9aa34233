#include "proto/zstd_stream.hh"

// For ZSTD_c_literalCompressionMode: zstd.h reveals its experimental part
// when included again with this defined.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>

#include <algorithm>
#include <utility>
#include <new>
#include <stdexcept>
#include <string>

#include "common/error.hh"

namespace pm {
namespace {

// Bytes handed to the decoder per call (see ZstdInputStream::Read).
constexpr size_t kErrorSlice = 4096;

void CheckCompress(size_t rc) {
  if (ZSTD_isError(rc))
    throw std::runtime_error(std::string("zstd compression failed: ") +
                             ZSTD_getErrorName(rc));
}

}  // namespace

ZstdOutputStream::ZstdOutputStream(OutputStream& sink, const ZstdTuning& tuning)
    : sink_(sink),
      ctx_(ZSTD_createCCtx()),
      out_size_(ZSTD_CStreamOutSize()) {
  if (ctx_ == nullptr) throw std::bad_alloc();
  out_.reset(new char[out_size_]);
  CheckCompress(ZSTD_CCtx_setParameter(ctx_, ZSTD_c_checksumFlag, 1));
  const std::pair<ZSTD_cParameter, int> params[] = {
      {ZSTD_c_compressionLevel, tuning.level},
      {ZSTD_c_windowLog, tuning.window_log},
      {ZSTD_c_hashLog, tuning.hash_log},
      {ZSTD_c_chainLog, tuning.chain_log},
      {ZSTD_c_searchLog, tuning.search_log},
      {ZSTD_c_minMatch, tuning.min_match},
      {ZSTD_c_targetLength, tuning.target_length},
      {ZSTD_c_strategy, tuning.strategy},
      {ZSTD_c_literalCompressionMode, tuning.literals},
  };
  for (auto [param, value] : params)
    if (value != 0) CheckCompress(ZSTD_CCtx_setParameter(ctx_, param, value));
}

ZstdOutputStream::~ZstdOutputStream() { ZSTD_freeCCtx(ctx_); }

void ZstdOutputStream::Write(std::string_view bytes) {
  if (finished_) throw std::logic_error("zstd: Write after Finish");
  Compress(ZSTD_e_continue, bytes);
}

void ZstdOutputStream::Flush() {
  if (finished_) throw std::logic_error("zstd: Flush after Finish");
  Compress(ZSTD_e_flush, {});
  Drain();
  sink_.Flush();
}

void ZstdOutputStream::Finish() {
  if (finished_) throw std::logic_error("zstd: Finish twice");
  finished_ = true;
  Compress(ZSTD_e_end, {});
  Drain();
  sink_.Finish();
}

// Runs the compressor until `mode` is satisfied, draining the buffer only
// when it is full, so a Write usually leaves its output for the next Flush.
void ZstdOutputStream::Compress(ZSTD_EndDirective mode,
                                std::string_view bytes) {
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  for (;;) {
    if (out_len_ == out_size_) Drain();
    ZSTD_outBuffer out{out_.get(), out_size_, out_len_};
    size_t remaining = ZSTD_compressStream2(ctx_, &out, &in, mode);
    CheckCompress(remaining);
    out_len_ = out.pos;
    if (mode == ZSTD_e_continue ? in.pos == in.size : remaining == 0) return;
  }
}

void ZstdOutputStream::Drain() {
  if (out_len_ == 0) return;
  sink_.Write({out_.get(), out_len_});
  out_len_ = 0;
}

ZstdInputStream::ZstdInputStream(InputStream& source,
                                 std::string_view already_read)
    : in_(source, already_read), ctx_(ZSTD_createDCtx()) {
  if (ctx_ == nullptr) throw std::bad_alloc();
}

ZstdInputStream::~ZstdInputStream() { ZSTD_freeDCtx(ctx_); }

size_t ZstdInputStream::Read(std::span<char> buf) {
  if (buf.empty()) return 0;
  for (;;) {
    // zstd forgets the output of a call that fails, and flushes what it
    // holds before it checks a frame's checksum: output still held is taken
    // first, in a call without input, so a bad checksum costs no sample.
    if (size_t n = Decode(buf, pending_.pos)) return n;
    if (pending_.pos == pending_.size && !in_.eof()) {
      std::string_view next = in_.Refill();
      pending_ = {next.data(), next.size(), 0};
    }
    // zstd leaves pos unchanged when it fails, so the end of what it was
    // given is the best error offset: small slices keep that close. The
    // decoder's own hint (block by block) keeps a frame's checksum out of
    // the call that decodes its last block.
    size_t step = std::min(kErrorSlice, next_hint_);
    if (size_t n = Decode(buf, std::min(pending_.size, pending_.pos + step))) return n;
    if (pending_.pos == pending_.size && in_.eof()) {
      truncated_ = in_frame_;
      return 0;
    }
  }
}

// One call to the decoder with pending_ up to `end`; the bytes it wrote.
size_t ZstdInputStream::Decode(std::span<char> buf, size_t end) {
  ZSTD_inBuffer slice{pending_.src, end, pending_.pos};
  ZSTD_outBuffer out{buf.data(), buf.size(), 0};
  size_t rc = ZSTD_decompressStream(ctx_, &out, &slice);
  if (ZSTD_isError(rc)) ThrowCorrupt(rc, pending_.size - slice.size);
  // rc == 0: a frame is complete and fully flushed. Without progress the
  // hint says nothing about where we are.
  if (slice.pos > pending_.pos || out.pos > 0) {
    in_frame_ = rc != 0;
    next_hint_ = rc == 0 ? kErrorSlice : rc;
  }
  pending_.pos = slice.pos;
  return out.pos;
}

void ZstdInputStream::ThrowCorrupt(size_t rc, size_t unread) const {
  throw FormatError("corrupt zstd data at byte " +
                    std::to_string(in_.total() - unread) + ": " +
                    ZSTD_getErrorName(rc));
}

}  // namespace pm
