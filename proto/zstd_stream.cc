#include "proto/zstd_stream.hh"

// For ZSTD_c_literalCompressionMode: zstd.h reveals its experimental part
// when included again with this defined.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zstd_errors.h>
// XXH64 inlined here, from Debian's libxxhash-dev: nothing to link.
#define XXH_INLINE_ALL
#include <xxhash.h>

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

std::string ChecksumWrong(uint64_t at) {
  return "corrupt zstd data at byte " + std::to_string(at) + ": " +
         ZSTD_getErrorString(ZSTD_error_checksum_wrong);
}

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

struct ZstdInputStream::FrameHash {
  XXH64_state_t state;
};

// The reader's half of DeferChecks: the hash goes on from the frame's so
// far, and starts again at each frame.
class ZstdCheck final : public DeferredCheck {
 public:
  explicit ZstdCheck(const XXH64_state_t& so_far) : state_(so_far) {}
  void Add(std::span<const char> bytes) override {
    XXH64_update(&state_, bytes.data(), bytes.size());
  }
  void At(const CheckPoint& point) override {
    if (point.kind == CheckPoint::Kind::kStart) {
      XXH64_reset(&state_, 0);
    } else if (static_cast<uint32_t>(XXH64_digest(&state_)) != point.crc) {
      throw FormatError(ChecksumWrong(point.in_end));
    }
  }

 private:
  XXH64_state_t state_;
};

ZstdInputStream::ZstdInputStream(InputStream& source,
                                 std::string_view already_read)
    : in_(source, already_read), ctx_(ZSTD_createDCtx()), hash_(new FrameHash) {
  if (ctx_ == nullptr) throw std::bad_alloc();
  XXH64_reset(&hash_->state, 0);
  size_t rc = ZSTD_DCtx_setParameter(ctx_, ZSTD_d_forceIgnoreChecksum, ZSTD_d_ignoreChecksum);
  if (ZSTD_isError(rc)) {
    ZSTD_freeDCtx(ctx_);
    throw std::logic_error(std::string("zstd: ") + ZSTD_getErrorName(rc));
  }
}

ZstdInputStream::~ZstdInputStream() { ZSTD_freeDCtx(ctx_); }

size_t ZstdInputStream::Read(std::span<char> buf) {
  if (!deferred_error_.empty()) throw FormatError(deferred_error_);
  if (buf.empty()) return 0;
  for (;;) {
    // zstd forgets the output of a call that fails: output still held is
    // taken first, in a call without input, so damage costs no sample
    // decoded before it (a frame's checksum is checked here, once its
    // bytes are out: EndFrame). zstd holds output only when the call
    // before filled its buffer; the call is skipped otherwise.
    if (may_hold_)
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
  const size_t from = pending_.pos;
  ZSTD_inBuffer slice{pending_.src, end, pending_.pos};
  ZSTD_outBuffer out{buf.data(), buf.size(), 0};
  size_t rc = ZSTD_decompressStream(ctx_, &out, &slice);
  if (ZSTD_isError(rc)) ThrowCorrupt(rc, pending_.size - slice.size);
  may_hold_ = out.pos == out.size;
  // rc == 0: a frame is complete and fully flushed. Without progress the
  // hint says nothing about where we are.
  const bool progress = slice.pos > from || out.pos > 0;
  if (progress && !in_frame_) StartFrame();
  ReadHead(from, slice.pos);
  if (!deferred_) XXH64_update(&hash_->state, buf.data(), out.pos);
  if (progress) {
    in_frame_ = rc != 0;
    next_hint_ = rc == 0 ? kErrorSlice : rc;
  }
  pending_.pos = slice.pos;
  if (progress && rc == 0) EndFrame(out.pos);
  out_total_ += out.pos;
  return out.pos;
}

void ZstdInputStream::StartFrame() {
  head_len_ = 0;
  checksummed_ = false;
  if (!deferred_) {
    XXH64_reset(&hash_->state, 0);
    return;
  }
  CheckPoint start;
  start.kind = CheckPoint::Kind::kStart;
  start.at = out_total_;
  points_.Push(start);
}

// The frame's first 5 bytes among those consumed, chunk[from, to): a zstd
// frame whose descriptor has the checksum flag ends with a checksum (a
// skippable frame has none).
void ZstdInputStream::ReadHead(size_t from, size_t to) {
  if (head_len_ == sizeof head_ || from == to) return;
  const char* chunk = static_cast<const char*>(pending_.src);
  while (head_len_ < sizeof head_ && from < to) head_[head_len_++] = chunk[from++];
  if (head_len_ == sizeof head_)
    checksummed_ = LittleEndian32(head_) == ZSTD_MAGICNUMBER && (head_[4] & 0x04) != 0;
}

// A frame ended with the bytes of the last call (`produced` of them): its
// checksum is the 4 bytes the decoder read last.
void ZstdInputStream::EndFrame(size_t produced) {
  if (!checksummed_) return;
  char checksum[4];
  in_.LastRead(pending_.size - pending_.pos, checksum);
  CheckPoint end;
  end.crc = LittleEndian32(checksum);
  end.in_end = in_.total() - (pending_.size - pending_.pos);
  if (deferred_) {
    end.at = out_total_ + produced;
    points_.Push(end);
  } else if (static_cast<uint32_t>(XXH64_digest(&hash_->state)) != end.crc) {
    if (produced == 0) throw FormatError(ChecksumWrong(end.in_end));
    deferred_error_ = ChecksumWrong(end.in_end);
  }
}

std::unique_ptr<DeferredCheck> ZstdInputStream::DeferChecks() {
  if (deferred_) throw std::logic_error("zstd: DeferChecks twice");
  deferred_ = true;
  out_total_ = 0;
  return std::make_unique<ZstdCheck>(hash_->state);
}

void ZstdInputStream::ThrowCorrupt(size_t rc, size_t unread) const {
  throw FormatError("corrupt zstd data at byte " +
                    std::to_string(in_.total() - unread) + ": " +
                    ZSTD_getErrorName(rc));
}

}  // namespace pm
