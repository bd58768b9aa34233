#include "playback/reading/prefetched_input.hh"

#include <algorithm>

namespace pm {

PrefetchedInput::PrefetchedInput(InputStream& source, DecompressingInput* checks)
    : source_(source),
      deferring_(checks),
      check_(checks ? checks->DeferChecks() : nullptr),
      thread_([this] { Fill(); }) {}

PrefetchedInput::~PrefetchedInput() { Stop(); }

void PrefetchedInput::Stop() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    ended_ = true;  // a reader never waits for a block that will not come
  }
  freed_.notify_one();
  if (thread_.joinable()) thread_.join();
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
      if (block.size > 0 || !block.points.empty()) ++produced_;  // points: passed first
      if (block.size < kBlockSize) ended_ = true;  // the source ended, or failed
      error_ = error;
    }
    filled_.notify_one();
    if (block.size < kBlockSize) return;
  }
}

// A decompressor returns a flush block (about a line) per Read: handing
// over whole blocks keeps the threads from waking each other per line.
// The bytes read before a failure are kept: the reader gets them first,
// and the check points up to it (each knows where it lies).
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
  TakeCheckPoints(block);
  return size;
}

void PrefetchedInput::TakeCheckPoints(Block& block) {
  block.points.clear();
  if (!check_) return;
  for (CheckPoint point; deferring_->TakeCheckPoint(point);) block.points.push_back(point);
}

bool PrefetchedInput::WaitForBlock() {
  std::unique_lock lock(mutex_);
  if (holding_) {  // the block read to its end goes back to the thread
    block_start_ += Current().size;
    ++consumed_;
    holding_ = false;
    freed_.notify_one();
  }
  filled_.wait(lock, [this] { return produced_ > consumed_ || ended_; });
  if (produced_ > consumed_) {
    holding_ = true;
    at_ = 0;
    next_point_ = 0;
    return true;
  }
  if (error_) std::rethrow_exception(error_);
  return false;
}

// The check points where the reader is: passed before it reads on.
void PrefetchedInput::PassCheckPoints() {
  const std::vector<CheckPoint>& points = Current().points;
  while (next_point_ < points.size() && points[next_point_].at == block_start_ + at_)
    check_->At(points[next_point_++]);
}

size_t PrefetchedInput::Read(std::span<char> buf) {
  std::span<const char> bytes = Take(buf.size());
  std::copy(bytes.begin(), bytes.end(), buf.begin());
  return bytes.size();
}

std::span<const char> PrefetchedInput::Borrow(std::span<char>) { return Take(kBlockSize); }

// Up to `max` of the next bytes, in the block (empty: the end, or max 0),
// handed to the check if it is made here.
std::span<const char> PrefetchedInput::Take(size_t max) {
  if (max == 0) return {};
  for (;;) {
    if (holding_) {
      PassCheckPoints();
      if (at_ < Current().size) break;
    }
    if (!WaitForBlock()) return {};
  }
  const Block& block = Current();
  size_t n = std::min(max, block.size - at_);
  if (next_point_ < block.points.size())  // not past a check point
    n = std::min<uint64_t>(n, block.points[next_point_].at - (block_start_ + at_));
  std::span<const char> bytes(block.bytes.get() + at_, n);
  if (check_) check_->Add(bytes);
  at_ += n;
  return bytes;
}

}  // namespace pm
