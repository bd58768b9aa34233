// zstd compression filters. See codec.hh for the Flush/Finish and
// truncation contract; most callers want MakeCompressor/MakeDecompressor.
#pragma once

#include <zstd.h>

#include <memory>
#include <string>
#include <string_view>

#include "proto/codec.hh"
#include "proto/input_buffer.hh"
#include "proto/stream.hh"

namespace pm {

// Level 1 with a 16 KiB window and 4096-entry tables: on sample lines,
// which mostly repeat the line before, this is both smaller and faster than
// the default level 3 with its 2 MiB window, and touches far less memory
// per sample and at start-up. The recorder flushes every sample, so each
// is a block of its own. A field left 0 takes the level's value
// (bench/format_bench.cc --sweep compares them).
struct ZstdTuning {
  int level = 1;
  int window_log = 14;
  int hash_log = 12;
  int chain_log = 12;
  int search_log = 0;
  int min_match = 0;
  int target_length = 0;
  int strategy = 0;  // ZSTD_strategy
  int literals = 0;  // ZSTD_c_literalCompressionMode: 0 auto, 1 Huffman, 2 raw
};

// Frames carry a content checksum: zstd has no per-block check, and a
// flipped literal byte would otherwise decode silently.
class ZstdOutputStream final : public OutputStream {
 public:
  explicit ZstdOutputStream(OutputStream& sink, const ZstdTuning& tuning = {});
  ~ZstdOutputStream() override;
  ZstdOutputStream(const ZstdOutputStream&) = delete;
  ZstdOutputStream& operator=(const ZstdOutputStream&) = delete;

  void Write(std::string_view bytes) override;
  void Flush() override;   // ZSTD_e_flush, one sink Write, sink Flush
  void Finish() override;  // ZSTD_e_end (frame epilogue), sink Finish

 private:
  void Compress(ZSTD_EndDirective mode, std::string_view bytes);
  void Drain();

  OutputStream& sink_;
  ZSTD_CCtx* ctx_;
  std::unique_ptr<char[]> out_;
  size_t out_size_;
  size_t out_len_ = 0;
  bool finished_ = false;
};

// Accepts concatenated (and skippable) frames. Every byte decoded before a
// damage is returned before the FormatError that names it.
//
// A frame's content checksum (XXH64 of its bytes, a quarter of decoding's
// time) is computed here rather than by zstd, so that DeferChecks() can
// hand it to the reader's thread even in the middle of the frame (a
// recording is one frame): with the hash so far, then a start point at
// each frame and an end point with the checksum at each frame that has
// one (the 4 bytes zstd read last). Messages and offsets are zstd's.
class ZstdInputStream final : public DecompressingInput {
 public:
  ZstdInputStream(InputStream& source, std::string_view already_read);
  ~ZstdInputStream() override;
  ZstdInputStream(const ZstdInputStream&) = delete;
  ZstdInputStream& operator=(const ZstdInputStream&) = delete;

  size_t Read(std::span<char> buf) override;
  bool truncated() const override { return truncated_; }
  Compression compression() const override { return Compression::kZstd; }
  std::unique_ptr<DeferredCheck> DeferChecks() override;
  bool TakeCheckPoint(CheckPoint& point) override { return points_.Take(point); }

 private:
  struct FrameHash;  // XXH64's state, kept out of this header
  size_t Decode(std::span<char> buf, size_t end);
  void StartFrame();
  void ReadHead(size_t from, size_t to);
  void EndFrame(size_t produced);
  [[noreturn]] void ThrowCorrupt(size_t rc, size_t unread) const;

  InputBuffer in_;
  ZSTD_DCtx* ctx_;
  ZSTD_inBuffer pending_{nullptr, 0, 0};
  bool in_frame_ = false;  // bytes of a frame fed, its end not yet seen
  std::unique_ptr<FrameHash> hash_;  // of the frame's bytes so far
  // The frame's first bytes, its magic number and descriptor, as they are
  // consumed (zstd returns at the end of every frame, skippable ones too,
  // so a frame starts with the first call after).
  char head_[5] = {};
  size_t head_len_ = 0;
  bool checksummed_ = false;  // the frame ends with a content checksum
  uint64_t out_total_ = 0;    // bytes returned since DeferChecks()
  bool deferred_ = false;
  CheckPoints points_;
  std::string deferred_error_;  // a bad checksum after good bytes
  bool truncated_ = false;
  size_t next_hint_ = 4096;  // input the decoder asked for next
  bool may_hold_ = false;    // the last call filled its buffer: output may be held
};

}  // namespace pm
