// CRC-32 as gzip writes it and zlib's crc32() computes it, several times
// faster where the CPU multiplies without carries (PCLMULQDQ: every
// x86-64 of the last decade; asked at run time, the executable runs on
// any). summary checks a gzip recording's CRC on its reading thread
// (GzipCheck), where zlib's table-driven crc32() took about as long as the
// skim itself.
#pragma once

#include <cstdint>
#include <span>

namespace pm {

// The CRC of the bytes before `bytes` (0 for none) carried over them:
// crc32(crc32(0, a), b) == crc32(0, a + b), as zlib's.
uint32_t Crc32(uint32_t crc, std::span<const char> bytes);

}  // namespace pm
