#include "playback/outputs/column_spool.hh"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "common/error.hh"
#include "common/io.hh"

namespace pm {
namespace {

void PreadAll(int fd, void* buf, size_t n, uint64_t offset) {
  char* p = static_cast<char*>(buf);
  while (n > 0) {
    ssize_t r = pread(fd, p, n, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw SystemError("reading the export spool");
    if (r == 0) throw SystemError("reading the export spool", EIO);
    p += r;
    n -= static_cast<size_t>(r);
    offset += static_cast<uint64_t>(r);
  }
}

}  // namespace

UniqueFd OpenSpoolFile(const std::string& dir) {
  int fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return UniqueFd::Adopt(fd);
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    throw SystemError("spool file in " + dir + " (set TMPDIR to a writable directory)");
  std::string name = dir + "/perfmonger-spool-XXXXXX";
  fd = mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0)
    throw SystemError("spool file in " + dir + " (set TMPDIR to a writable directory)");
  unlink(name.c_str());
  return UniqueFd::Adopt(fd);
}

ColumnSpool::ColumnSpool(const std::string& dir, size_t block_bytes)
    : fd_(OpenSpoolFile(dir)), block_bytes_(std::max<size_t>(block_bytes, 64)) {}

void ColumnSpool::Append(std::span<const uint64_t> row) {
  full_ = full_ && (rows_ == 0 || row.size() == ncols_);
  if (row.size() > ncols_) {
    WriteBlock();  // a block has one width
    ncols_ = row.size();
    size_t capacity = std::max<size_t>(1, block_bytes_ / (8 * ncols_));
    stage_.assign(capacity * ncols_, kAbsent);
  }
  uint64_t* dst = stage_.data() + staged_rows_ * ncols_;
  std::copy(row.begin(), row.end(), dst);
  std::fill(dst + row.size(), dst + ncols_, kAbsent);
  ++staged_rows_;
  ++rows_;
  if ((staged_rows_ + 1) * ncols_ > stage_.size()) WriteBlock();
}

void ColumnSpool::Finish() { WriteBlock(); }

void ColumnSpool::WriteBlock() {
  if (staged_rows_ == 0) return;
  size_t n = staged_rows_;
  out_.resize(2 + ncols_ * n);
  out_[0] = ncols_;
  out_[1] = n;
  // Eight columns at a time: each staged row's cache line is read once,
  // not once per column (column by column, the block's 8 MiB were read
  // from memory per column: a tenth of play --format columns' CPU).
  for (size_t c0 = 0; c0 < ncols_; c0 += 8) {
    const size_t c1 = std::min(c0 + 8, ncols_);
    for (size_t r = 0; r < n; ++r)
      for (size_t c = c0; c < c1; ++c) out_[2 + c * n + r] = stage_[r * ncols_ + c];
  }
  std::string_view bytes(reinterpret_cast<const char*>(out_.data()), out_.size() * 8);
  WriteAll(fd_.Get(), bytes);
  size_ += bytes.size();
  staged_rows_ = 0;
}

bool ColumnSpool::CopyColumn(size_t col, int fd) const {
  bool copied = false;
  for (uint64_t offset = 0; offset < size_;) {
    uint64_t head[2];
    PreadAll(fd_.Get(), head, sizeof head, offset);
    const uint64_t ncols = head[0], nrows = head[1];
    auto from = static_cast<off_t>(offset + 16 + col * nrows * 8);
    for (size_t left = nrows * 8; left > 0;) {
      ssize_t n = copy_file_range(fd_.Get(), &from, fd, nullptr, left, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0 && !copied) return false;
      if (n <= 0) throw SystemError("copying the export spool", n == 0 ? EIO : errno);
      copied = true;
      left -= static_cast<size_t>(n);
    }
    offset += 16 + ncols * nrows * 8;
  }
  return true;
}

bool ColumnSpool::Cursor::LoadBlock() {
  if (offset_ >= spool_.size_) return false;
  uint64_t head[2];
  PreadAll(spool_.fd_.Get(), head, sizeof head, offset_);
  uint64_t ncols = head[0], nrows = head[1];
  buf_.resize(nrows);
  if (col_ < ncols)
    PreadAll(spool_.fd_.Get(), buf_.data(), nrows * 8, offset_ + 16 + col_ * nrows * 8);
  else
    std::fill(buf_.begin(), buf_.end(), kAbsent);
  offset_ += 16 + ncols * nrows * 8;
  pos_ = 0;
  return true;
}

}  // namespace pm
