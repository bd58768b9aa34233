#include "playback/prefetched_input.hh"

#include <algorithm>

namespace pm {

PrefetchedInput::PrefetchedInput(InputStream& source)
    : source_(source), thread_([this] { Fill(); }) {}

PrefetchedInput::~PrefetchedInput() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  freed_.notify_one();
  thread_.join();
}

// Each block is filled outside the lock: the reader takes only blocks
// already published by produced_.
void PrefetchedInput::Fill() {
  for (;;) {
    size_t slot;
    {
      std::unique_lock lock(mutex_);
      freed_.wait(lock, [this] { return stop_ || produced_ - consumed_ < kBlocks; });
      if (stop_) return;
      slot = produced_ % kBlocks;
    }
    std::exception_ptr error;
    Block& block = ring_[slot];
    block.size = FillBlock(block, error);
    {
      std::lock_guard lock(mutex_);
      if (block.size > 0) ++produced_;
      if (block.size < kBlockSize) ended_ = true;  // the source ended, or failed
      error_ = error;
    }
    filled_.notify_one();
    if (block.size < kBlockSize) return;
  }
}

// A decompressor returns a flush block (about a line) per Read: handing
// over whole blocks keeps the threads from waking each other per line.
// The bytes read before a failure are kept: the reader gets them first.
size_t PrefetchedInput::FillBlock(Block& block, std::exception_ptr& error) {
  size_t size = 0;
  try {
    while (size < kBlockSize) {
      size_t n = source_.Read(std::span(block.bytes.get() + size, kBlockSize - size));
      if (n == 0) break;
      size += n;
    }
  } catch (...) {
    error = std::current_exception();
  }
  return size;
}

bool PrefetchedInput::WaitForBlock() {
  std::unique_lock lock(mutex_);
  if (holding_) {  // the block read to its end goes back to the thread
    ++consumed_;
    holding_ = false;
    freed_.notify_one();
  }
  filled_.wait(lock, [this] { return produced_ > consumed_ || ended_; });
  if (produced_ > consumed_) {
    holding_ = true;
    at_ = 0;
    return true;
  }
  if (error_) std::rethrow_exception(error_);
  return false;
}

size_t PrefetchedInput::Read(std::span<char> buf) {
  if (buf.empty()) return 0;
  if (!holding_ || at_ == ring_[consumed_ % kBlocks].size) {
    if (!WaitForBlock()) return 0;
  }
  const Block& block = ring_[consumed_ % kBlocks];
  size_t n = std::min(buf.size(), block.size - at_);
  std::copy_n(block.bytes.get() + at_, n, buf.data());
  at_ += n;
  return n;
}

}  // namespace pm
