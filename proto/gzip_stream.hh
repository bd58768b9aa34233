// gzip (zlib) compression filters. See codec.hh for the Flush/Finish and
// truncation contract; most callers want MakeCompressor/MakeDecompressor.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <memory>
#include <string_view>

#include "proto/codec.hh"
#include "proto/input_buffer.hh"
#include "proto/stream.hh"

namespace pm {

// Level 3: .gz is the default output, and per-sample CPU is what a
// recorder is judged by; level 6 costs ~17k more instructions a sample
// (callgrind) for ~25% fewer bytes. Levels 1-3 share zlib's fast matcher;
// 3 looks further along the hash chains and inserts longer matches, which
// finds the unchanged stretches of a v2 difference line (48 -> 41 bytes a
// sample at 100 ms, 33 -> 30 at 10 ms) for no more instructions, and costs
// v1 lines ~1% more (callgrind, perfmonger-bench-format --sweep). The
// window and hash table are smaller
// than zlib's defaults (8 KiB window, memLevel 6: a quarter of the memory):
// a sample line repeats the one before it, a few KiB back, and every sample
// touches far less cold memory after the recorder's sleep.
inline constexpr int kGzipLevel = 3;
inline constexpr int kGzipWindowLog = 13;
inline constexpr int kGzipMemLevel = 6;
// Each Flush() ends with Z_PARTIAL_FLUSH's empty fixed block (10 bits)
// rather than Z_SYNC_FLUSH's empty stored block (4 bytes after the
// alignment): the decoder can finish every block before it all the same,
// and a sample flushed on its own costs ~3.5 bytes less
// (perfmonger-bench-format --sweep).
inline constexpr int kGzipFlush = Z_PARTIAL_FLUSH;

class GzipOutputStream final : public OutputStream {
 public:
  // Data up to the first Flush() is compressed at `first_level`, the rest
  // at `level` (0 = stored; see FirstFlush in codec.hh). `flush`: the zlib
  // flush mode of Flush().
  explicit GzipOutputStream(OutputStream& sink, int level = kGzipLevel,
                            int first_level = kGzipLevel, int flush = kGzipFlush);
  ~GzipOutputStream() override;
  // z_stream points into itself: neither copyable nor movable.
  GzipOutputStream(const GzipOutputStream&) = delete;
  GzipOutputStream& operator=(const GzipOutputStream&) = delete;

  void Write(std::string_view bytes) override;
  void Flush() override;   // kGzipFlush, one sink Write, sink Flush
  void Finish() override;  // Z_FINISH (trailer), sink Finish

 private:
  void Deflate(int mode);
  void Drain();

  OutputStream& sink_;
  z_stream strm_{};
  std::unique_ptr<Bytef[]> out_;
  size_t out_len_ = 0;
  int level_after_first_flush_;
  int flush_mode_;
  bool flushed_ = false;
  bool finished_ = false;
};

// Accepts concatenated members (as gzip(1) does; not zlib's format).
// Every byte inflated before a damage (a bad CRC in the trailer, say) is
// returned before the FormatError that names it.
//
// The CRC-32 of the output is a quarter of inflating's time: DeferChecks()
// hands it to the reader's thread. zlib still checks each member's header
// (its optional CRC too) and what it inflates in the same call; then it
// stops checking, and hands on a start point with its CRC so far. At the
// member's end its trailer is handed on: the 8 bytes inflate read last.
class GzipInputStream final : public DecompressingInput {
 public:
  GzipInputStream(InputStream& source, std::string_view already_read);
  ~GzipInputStream() override;
  GzipInputStream(const GzipInputStream&) = delete;
  GzipInputStream& operator=(const GzipInputStream&) = delete;

  size_t Read(std::span<char> buf) override;
  bool truncated() const override { return truncated_; }
  Compression compression() const override { return Compression::kGzip; }
  std::unique_ptr<DeferredCheck> DeferChecks() override;
  bool TakeCheckPoint(CheckPoint& point) override;

 private:
  void StartMember();
  void HandOver(size_t produced);
  CheckPoint Trailer() const;
  CheckPoint TrailerEndingAt(size_t read) const;
  void CutInTrailer();
  void Refill();
  void AfterInflate(int rc, size_t produced);
  std::string CorruptMessage(const char* why) const;

  InputBuffer in_;
  z_stream strm_{};
  uint64_t out_total_ = 0;      // bytes returned since DeferChecks()
  gz_header header_{};          // the member's, as inflate reads it
  bool deferred_ = false;
  bool zlib_checks_ = true;     // the member's bytes: zlib checks them
  CheckPoints points_;
  // Damage found in the call that also inflated good bytes: those are
  // handed out first, the error is thrown by the next Read.
  std::string deferred_error_;
  bool in_member_ = false;  // bytes of a member fed, its end not yet seen
  bool truncated_ = false;
};

}  // namespace pm
