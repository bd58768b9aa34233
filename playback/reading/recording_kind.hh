// What the first bytes of a decompressed input say it is, before a reader
// is chosen (RecordingReader), and the message for inputs that are no
// recording at all.
//
//   native  '{' not followed by 0xff: a pgr(5) header line.
//   legacy  a Go gob stream: a message length (one byte below 0x80, or
//           0xf8-0xff then that many bytes), then the negative type id of
//           the first type definition, whose first byte is 0xf8-0xff (user
//           type ids start at 65, so the id never fits one byte). Too few
//           bytes to tell also reads as legacy: a gob stream cut short.
//   zeros   a 0x00 first byte: a gob message is never empty, so the file
//           was zero-filled (another process truncated it while it was
//           being written, leaving a hole) or never written. A recording
//           that starts after the zeros is read from there.
//   foreign anything else (text, random bytes, another program's file).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "proto/stream.hh"

namespace pm {

enum class RecordingKind { kNative, kLegacy, kZeros, kForeign };

// Enough first bytes to tell the kinds apart and to quote a foreign file.
inline constexpr size_t kKindHeadBytes = 16;

// `head`: the first kKindHeadBytes bytes (fewer only at the end of the
// input), not empty.
RecordingKind KindOf(std::string_view head);

// "not a PerfMonger recording: it starts with \"root:x:0:0:\" ...".
std::string ForeignMessage(std::string_view head);

// `in` read from its first byte that is not zero (all of it when that is
// its first). Zeros first mean another process truncated the file while
// it was being written and the writer went on at its offset: a hole, then
// what it wrote after. Reading through the zeros (at most about `limit` of
// them) happens at construction; memory stays at one small buffer.
class AfterLeadingZeros final : public InputStream {
 public:
  explicit AfterLeadingZeros(InputStream& in, uint64_t limit = uint64_t{1} << 30);
  uint64_t zeros() const { return zeros_; }  // the hole's length
  // Whether bytes other than zeros came after the hole, read or not yet.
  bool data_follows() const { return data_follows_; }
  size_t Read(std::span<char> buf) override;
  std::span<const char> Borrow(std::span<char> scratch) override;

 private:
  InputStream& in_;
  std::array<char, 4096> buf_;
  size_t pos_ = 0, len_ = 0;
  uint64_t zeros_ = 0;
  bool data_follows_ = false;
};

// Why what follows the zeros cannot be read: nothing follows, the limit
// was reached, or data follows without the header that would read it.
std::string ZerosMessage(const AfterLeadingZeros& hole, uint64_t limit = uint64_t{1} << 30);

// The warning for a hole followed by a recording, read from there on.
std::string HoleWarning(const AfterLeadingZeros& hole);

}  // namespace pm
