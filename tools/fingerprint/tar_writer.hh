// A ustar archive writer over an OutputStream (put a gzip filter in front
// of the sink for .tar.gz). Regular files and directories only; names of
// up to 255 bytes (split into ustar's prefix and name fields).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "proto/stream.hh"

namespace pm {

class TarWriter {
 public:
  // `mtime` (seconds since the epoch) stamps every entry.
  TarWriter(OutputStream& out, int64_t mtime) : out_(out), mtime_(mtime) {}

  // Throws std::invalid_argument for a name ustar cannot hold.
  void AddDirectory(std::string_view name);  // a trailing '/' is added
  void AddFile(std::string_view name, std::string_view contents,
               unsigned mode = 0644);
  // The end-of-archive marker (two zero blocks), then out.Finish().
  void Finish();

 private:
  void WriteHeader(std::string_view name, uint64_t size, unsigned mode,
                   char type);

  OutputStream& out_;
  int64_t mtime_;
};

// The 512-byte ustar header block (exposed for tests).
std::string TarHeader(std::string_view name, uint64_t size, unsigned mode,
                      char type, int64_t mtime);

}  // namespace pm
