// Rows in, columns out, with flat memory: the OpenMetrics export must write
// every series of a recording contiguously (the format forbids interleaving
// families, and a series' points stand together), while the recording comes
// sample by sample and may be of any length. One pass over the recording
// appends one row per sample (a time and one value per series); ColumnSpool
// stages rows in a bounded block and writes each full block to an unnamed
// temporary file column by column; a Cursor then reads one column back,
// block by block. Memory: two staging buffers of `block_bytes` and one
// buffer per open cursor, whatever the number of rows. Disk: 8 bytes per
// row and column.
//
// File layout (private to this class, gone when the object is): blocks,
// each [ncols u64][nrows u64] then ncols columns of nrows u64 values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/unique_fd.hh"

namespace pm {

// An unnamed read-write file in `dir` (O_TMPFILE, else created and
// unlinked at once). Throws std::system_error naming `dir`.
UniqueFd OpenSpoolFile(const std::string& dir);

class ColumnSpool {
 public:
  // No value in this row. A counter at exactly 2^64-1 reads as absent too:
  // no kernel counter gets there before wrapping.
  static constexpr uint64_t kAbsent = UINT64_MAX;

  explicit ColumnSpool(const std::string& dir, size_t block_bytes = 1 << 20);

  // One row. Rows may grow wider (a device seen late); missing trailing
  // columns read as kAbsent. Throws std::system_error on a write error.
  void Append(std::span<const uint64_t> row);
  void Finish();  // writes the staged rows; call before reading

  uint64_t rows() const { return rows_; }
  // Every row as wide as the first, so no value was filled in as kAbsent.
  bool full() const { return full_; }
  // Column `col`'s values, as stored (native byte order), appended to the
  // file `fd` by the kernel (copy_file_range: no copy through this
  // process). False, having written nothing, when the kernel cannot
  // (`fd` not a file it copies to); throws std::system_error on an error
  // after the first bytes.
  bool CopyColumn(size_t col, int fd) const;

  // Reads column `col` in row order.
  class Cursor {
   public:
    Cursor(const ColumnSpool& spool, size_t col) : spool_(spool), col_(col) {}
    bool Next(uint64_t& value) {
      while (pos_ == buf_.size())
        if (!LoadBlock()) return false;
      value = buf_[pos_++];
      return true;
    }

   private:
    bool LoadBlock();
    const ColumnSpool& spool_;
    size_t col_;
    uint64_t offset_ = 0;
    size_t pos_ = 0;
    std::vector<uint64_t> buf_;
  };

 private:
  void WriteBlock();

  UniqueFd fd_;
  size_t block_bytes_;
  size_t ncols_ = 0;             // of the staged block
  size_t staged_rows_ = 0;
  std::vector<uint64_t> stage_;  // row-major
  std::vector<uint64_t> out_;    // column-major, with the block header
  uint64_t rows_ = 0;
  uint64_t size_ = 0;            // bytes written
  bool full_ = true;
};

}  // namespace pm
