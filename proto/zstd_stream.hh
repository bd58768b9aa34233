// zstd compression filters. See codec.hh for the Flush/Finish and
// truncation contract; most callers want MakeCompressor/MakeDecompressor.
#pragma once

#include <zstd.h>

#include <memory>
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
class ZstdInputStream final : public DecompressingInput {
 public:
  ZstdInputStream(InputStream& source, std::string_view already_read);
  ~ZstdInputStream() override;
  ZstdInputStream(const ZstdInputStream&) = delete;
  ZstdInputStream& operator=(const ZstdInputStream&) = delete;

  size_t Read(std::span<char> buf) override;
  bool truncated() const override { return truncated_; }
  Compression compression() const override { return Compression::kZstd; }

 private:
  size_t Decode(std::span<char> buf, size_t end);
  [[noreturn]] void ThrowCorrupt(size_t rc, size_t unread) const;

  InputBuffer in_;
  ZSTD_DCtx* ctx_;
  ZSTD_inBuffer pending_{nullptr, 0, 0};
  bool in_frame_ = false;  // bytes of a frame fed, its end not yet seen
  bool truncated_ = false;
  size_t next_hint_ = 4096;  // input the decoder asked for next
};

}  // namespace pm
