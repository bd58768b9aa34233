// The recording's file: the last stage of the output chain
// (encoder -> compressor -> FileSink). Owns the fd. Writes go straight to
// the kernel (the compressor already hands over one block per sample), so
// a Flush() has nothing left to do and a reader sees each sample at once.
#pragma once

#include <cstdint>
#include <string>

#include "common/unique_fd.hh"
#include "proto/stream.hh"

namespace pm {

class FileSink final : public OutputStream {
 public:
  // Creates or truncates `path` (0644). Throws std::system_error.
  explicit FileSink(const std::string& path);

  void Write(std::string_view bytes) override;
  void Flush() override {}
  void Finish() override;  // fsync: the recording is on disk

  void Close();  // reports a failing close() (NFS, quota) as an error
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  std::string path_;
  UniqueFd fd_;
  uint64_t bytes_written_ = 0;
};

}  // namespace pm
