#include "proto/stream.hh"

#include <algorithm>
#include <cstring>

namespace pm {

size_t MemoryInputStream::Read(std::span<char> buf) {
  size_t n = std::min(buf.size(), rest_.size());
  std::memcpy(buf.data(), rest_.data(), n);
  rest_.remove_prefix(n);
  return n;
}

}  // namespace pm
