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
//           being written, leaving a hole) or never written.
//   foreign anything else (text, random bytes, another program's file).
#pragma once

#include <cstddef>
#include <cstdint>
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

// `in` starts with a zero byte (kZeros). Reads it while it yields zero
// bytes (at most about `limit` of them) and describes the run: all zeros,
// zeros then data at byte N, or at least `limit` zeros. Memory stays at
// one small buffer.
std::string ZerosMessage(InputStream& in, uint64_t limit = uint64_t{1} << 20);

}  // namespace pm
