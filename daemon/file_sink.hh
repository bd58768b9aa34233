// The recording's file: the last stage of the output chain
// (encoder -> compressor -> FileSink). Owns the fd. Writes go straight to
// the kernel (the compressor already hands over one block per sample), so
// a Flush() has nothing left to do and a reader sees each sample at once.
//
// Any writable file is an output: a regular file, a pipe or FIFO, a
// character device (/dev/null, a terminal), "-" for standard output. Only
// a regular file is locked, truncated, synced and checked for deletion and
// truncation.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/unique_fd.hh"
#include "proto/stream.hh"

namespace pm {

// The output file was deleted or truncated by another process while
// recording: what was written does not survive.
class OutputLost : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Refuses an empty -l PATH (UsageError) before it is made absolute: made
// absolute it would name the working directory.
void RequireOutputPath(const std::string& path);

class FileSink final : public OutputStream {
 public:
  // Opens `path` ("-": a copy of stdout). A regular file is created
  // (0644), write-locked (fcntl), then truncated: the lock comes first so
  // that a second recorder never truncates the first one's file. Throws
  // UsageError naming who holds the lock (another recorder, or another
  // process: daemon/lock_holder.hh); SetupError for a directory, a FIFO
  // without a reader or a planted entry (common/output_file.hh);
  // std::system_error otherwise.
  explicit FileSink(const std::string& path);

  void Write(std::string_view bytes) override;
  void Flush() override {}
  void Finish() override;  // fsync (a regular file): the recording is on disk

  // A regular file whose last link is gone, or that another process cut
  // short (": > FILE"): throws OutputLost. Write() checks the length
  // itself; this also finds a cut that a write overtook.
  void CheckIntact() const;
  // After a failure before anything usable was written: removes the file
  // this sink created or truncated (a regular file only).
  void RemoveFile() noexcept;
  // After a failed write (a full disk): cuts a regular file back to
  // `bytes`, the end of its last complete flush, so that a partial block
  // does not follow it; false if that failed too.
  bool TruncateTo(uint64_t bytes) noexcept;
  void Close();  // reports a failing close() (NFS, quota) as an error
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  void CheckLength() const;
  [[noreturn]] void Truncated() const;

  std::string path_;
  UniqueFd fd_;
  bool regular_ = false;
  uint64_t bytes_written_ = 0;
};

}  // namespace pm
