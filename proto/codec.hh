// Compression filters between two streams (gzip, zstd, or none).
//
// Writers choose the codec by output name; readers never trust the name and
// detect it from the magic bytes. A compressor's Flush() ends at a sync point
// (gzip Z_PARTIAL_FLUSH, zstd ZSTD_e_flush): the bytes written so far decode to
// exactly the data written so far, which is what lets `play` read a live or
// crashed recording. Finish() writes the trailer.
//
// A decompressor whose input ends inside a gzip member or zstd frame is
// *truncated*, not broken: it returns everything decodable before the cut,
// then Read() returns 0 and truncated() is true. Corrupt data throws
// pm::FormatError "corrupt gzip data at byte N: ..." where N counts the
// compressed bytes the decoder had read when it noticed: the damage lies
// before N (zstd checks whole blocks, so it may lie a block before).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "proto/stream.hh"

namespace pm {

enum class Compression { kPlain, kGzip, kZstd };

std::string_view CompressionName(Compression c);  // "plain", "gzip", "zstd"

// ".gz" gzip, ".zst" zstd, anything else plain (case-sensitive, as
// PerfMonger).
Compression CompressionForPath(std::string_view path);

inline constexpr size_t kMagicLength = 4;

// `first_bytes` is the first kMagicLength bytes of a stream, or the whole
// stream if it is shorter. gzip: 1f 8b; zstd: 28 b5 2f fd; else plain. A
// whole stream that is a non-empty proper prefix of a magic counts as that
// codec: it is a recording cut inside its magic (a plain recording starts
// with '{'), and must read as truncated rather than as garbage.
Compression DetectCompression(std::string_view first_bytes);

// How the data up to the first Flush() is encoded. The recorder's first
// flush (header + first sample) gates its ready line, so kStored makes it a
// plain copy for gzip (a stored block: ~0.25M fewer instructions, ~3 KB
// larger once); compression starts at the normal level after it, with the
// stored bytes as history. zstd and plain ignore it.
enum class FirstFlush { kCompressed, kStored };

// Plain is a pass-through that forwards Flush() and Finish(). The sink must
// outlive the compressor.
std::unique_ptr<OutputStream> MakeCompressor(Compression c, OutputStream& sink,
                                             FirstFlush first = FirstFlush::kCompressed);

// A point in a decompressor's output where the check its reader makes
// (DeferChecks) starts or ends a gzip member or zstd frame. gzip: at a
// start, the CRC-32 and count of the member's bytes before it (which the
// decompressor checked itself: it checks each member's header, and the
// bytes inflated with it); at an end, what the member's trailer says of
// all of them; at a cut (the input ended inside the trailer, after its
// CRC), the CRC alone. zstd: a start begins a frame's hash afresh; an end
// holds the frame's checksum.
struct CheckPoint {
  enum class Kind { kStart, kEnd, kCut };
  Kind kind = Kind::kEnd;
  uint64_t at = 0;      // bytes Read() returned since DeferChecks() before it
  uint32_t crc = 0;     // CRC-32 (gzip), XXH64's low 32 bits (zstd)
  uint32_t size = 0;    // count, mod 2^32 (gzip)
  uint64_t in_end = 0;  // kEnd, kCut: compressed bytes up to the trailer's end
};

// A decompressor's check of its output, made by its reader instead: a
// reader on another thread (playback/reading/prefetched_input.hh) takes that work
// off the thread that inflates. Add() every byte Read() returns, in order,
// and At() each check point where it lies: at an end it throws the
// FormatError the decompressor would have thrown there.
class DeferredCheck {
 public:
  virtual ~DeferredCheck() = default;
  virtual void Add(std::span<const char> bytes) = 0;
  virtual void At(const CheckPoint& point) = 0;
};

// The check points a decompressor passed in a Read, until taken.
class CheckPoints {
 public:
  void Push(const CheckPoint& point) { points_.push_back(point); }
  bool Take(CheckPoint& point) {
    if (taken_ == points_.size()) {
      points_.clear();
      taken_ = 0;
      return false;
    }
    point = points_[taken_++];
    return true;
  }

 private:
  std::vector<CheckPoint> points_;
  size_t taken_ = 0;
};

class DecompressingInput : public InputStream {
 public:
  // True once Read() has returned 0 because the input ended inside a gzip
  // member or zstd frame.
  virtual bool truncated() const = 0;
  virtual Compression compression() const = 0;

  // Stops checking its output and hands that to the caller, from the next
  // Read() on (also in the middle of a member or frame): null when this
  // codec does not. Then, after each Read(), TakeCheckPoint() until it
  // returns false gives the check points it passed — also after a Read()
  // that threw, where they come before the failure.
  virtual std::unique_ptr<DeferredCheck> DeferChecks() { return nullptr; }
  virtual bool TakeCheckPoint(CheckPoint&) { return false; }
};

// Reads the first bytes of `source` to detect the codec. The source must
// outlive the decompressor.
std::unique_ptr<DecompressingInput> MakeDecompressor(InputStream& source);

}  // namespace pm
