// An InputStream read ahead on a thread of its own: the source's Read()
// (a decompressor) runs there, a few blocks ahead of the reader, so that
// `play` formats (or `summary` validates) one stretch of a recording while
// the next is being inflated.
//
// Memory stays flat: a ring of kBlocks blocks of kBlockSize bytes; the
// thread waits when the reader is that far behind. The reader sees the
// source's bytes in order, then its end — or, at the point in the stream
// where the source failed, the same exception (FormatError for corrupt
// data, system_error for a failed read). Destroying the stream stops the
// thread, so the source must not block forever in Read(): give it a
// regular file, not a pipe.
//
// It can also take the decompressor's check of its output
// (DecompressingInput::DeferChecks: gzip's CRC-32, zstd's checksum) onto
// the reader's thread, which reads the bytes anyway: for a reader with
// time to spare (summary's skim), the thread that decompresses, the
// longer of the two, gets a quarter shorter. The check points travel with
// the block they lie in, and each is passed once the reader has read up
// to it, before any byte after it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "proto/codec.hh"
#include "proto/stream.hh"

namespace pm {

class PrefetchedInput final : public InputStream {
 public:
  static constexpr size_t kBlocks = 4;
  // Each hand-over may wake the other thread (a futex call each way), so
  // blocks are not tiny. But every byte passes through the ring, and a
  // 1 MiB ring (256 KiB blocks) filled the 1 MiB L2 and faulted in 256
  // pages: 64 KiB blocks took 4-9% off summary's median time on the
  // readers bench's recordings, and did not slow play.
  static constexpr size_t kBlockSize = 64 * 1024;

  // Starts reading `source`, which must outlive this stream. `checks`:
  // null, or the decompressor `source` is, whose checks the reader makes.
  explicit PrefetchedInput(InputStream& source, DecompressingInput* checks = nullptr);
  ~PrefetchedInput() override;
  PrefetchedInput(const PrefetchedInput&) = delete;
  PrefetchedInput& operator=(const PrefetchedInput&) = delete;

  size_t Read(std::span<char> buf) override;
  // A view of the block being read, up to its end or its next check point.
  std::span<const char> Borrow(std::span<char> scratch) override;

  // Stops the thread and waits for it, as the destructor does: the source
  // is then the caller's again, and so is what the thread wrote in it (a
  // decompressor's truncated()). Reads after it end with the blocks
  // already filled.
  void Stop();

 private:
  struct Block {
    std::unique_ptr<char[]> bytes{new char[kBlockSize]};
    size_t size = 0;
    std::vector<CheckPoint> points;  // the check points in it
  };
  void Fill();  // the thread
  size_t FillBlock(Block& block, std::exception_ptr& error);
  void TakeCheckPoints(Block& block);
  bool WaitForBlock();  // false at the end of the source
  void PassCheckPoints();
  std::span<const char> Take(size_t max);
  const Block& Current() const { return ring_[consumed_ % kBlocks]; }

  InputStream& source_;
  DecompressingInput* const deferring_;  // null: no checks taken over
  std::unique_ptr<DeferredCheck> check_;
  Block ring_[kBlocks];
  std::mutex mutex_;
  std::condition_variable filled_, freed_;
  // Guarded by mutex_: blocks filled and taken so far (ring index: % kBlocks).
  size_t produced_ = 0;
  size_t consumed_ = 0;
  bool ended_ = false;  // the source ended (or failed: error_)
  bool stop_ = false;
  std::exception_ptr error_;
  // The reader's own: the block it reads, and where.
  bool holding_ = false;
  size_t at_ = 0;
  uint64_t block_start_ = 0;  // bytes in the blocks before it
  size_t next_point_ = 0;     // its first check point not passed yet
  std::thread thread_;  // last: started once the rest is ready
};

}  // namespace pm
