// One /proc file, opened once and re-read from the start on every sample.
//
// The file is opened relative to a root directory fd (the real "/" in the
// daemon, a fake tree under test/data in tests) and stays open: a sample is
// a pread() from offset 0 to EOF, which for seq_file-backed /proc files
// regenerates the text without a new open(). The text is read to EOF into
// a buffer that grows by doubling (big machines have /proc/stat and
// /proc/interrupts far longer than one read) up to a hard cap, and is kept
// between reads, so steady-state sampling allocates nothing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/unique_fd.hh"

namespace pm {

class ProcFile {
 public:
  static constexpr size_t kInitialBytes = 4096;
  static constexpr size_t kDefaultMaxBytes = size_t{16} << 20;

  // How the kernel hands the text out. kRecords (the safe default): a read
  // may stop short at a page boundary between records (diskstats, net/dev,
  // interrupts), so only a read of 0 bytes is EOF. kWhole: the file is one
  // seq_file "show" (stat, meminfo) that a large enough buffer receives in
  // one read, so a short read is EOF and the confirming read is skipped.
  enum class Delivery { kRecords, kWhole };

  // `path` is relative to root_dirfd, e.g. "proc/stat". Throws SystemError
  // naming the file (see name()) if it cannot be opened, SetupError if it
  // is not a regular file (a FIFO is never waited on). The ProcFile owns
  // its fd.
  ProcFile(int root_dirfd, std::string_view path, size_t max_bytes = kDefaultMaxBytes,
           Delivery delivery = Delivery::kRecords);

  // The whole file as of now. The view stays valid until the next Read().
  // Throws SystemError on a read error, FormatError if the file is longer
  // than max_bytes.
  std::string_view Read();

  // "/proc/stat", or "DIR/proc/stat" below a fake root DIR (as an absolute
  // path): the name errors and parsers report.
  const std::string& name() const noexcept { return name_; }

 private:
  size_t ReadAt(size_t offset, char* dst, size_t len);
  void Grow();

  std::string name_;
  UniqueFd fd_;
  size_t max_bytes_;
  Delivery delivery_;
  std::string buf_;
};

}  // namespace pm
