#include "playback/recording_kind.hh"

#include <algorithm>
#include <array>

namespace pm {
namespace {

// Bytes in the gob unsigned integer starting with `first`, 0 if invalid.
size_t GobUintSize(unsigned char first) {
  if (first < 0x80) return 1;
  return first >= 0xf8 ? size_t{1} + (256 - first) : 0;
}

bool LooksGob(std::string_view head) {
  size_t length_bytes = GobUintSize(static_cast<unsigned char>(head[0]));
  if (length_bytes == 0) return false;
  if (head.size() <= length_bytes) return true;  // cut before the type id
  return static_cast<unsigned char>(head[length_bytes]) >= 0xf8;
}

// The bytes as a C string literal would show them: ASCII verbatim.
std::string Quoted(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : bytes) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u >= 0x20 && u < 0x7f) {
      out.push_back(c);
    } else {
      out.append("\\x").push_back(kHex[u >> 4]);
      out.push_back(kHex[u & 0xf]);
    }
  }
  return out + "\"";
}

}  // namespace

RecordingKind KindOf(std::string_view head) {
  if (head[0] == '{' && (head.size() < 2 || head[1] != '\xff'))
    return RecordingKind::kNative;
  if (head[0] == '\0') return RecordingKind::kZeros;
  return LooksGob(head) ? RecordingKind::kLegacy : RecordingKind::kForeign;
}

std::string ForeignMessage(std::string_view head) {
  return "not a PerfMonger recording: it starts with " + Quoted(head.substr(0, 12)) +
         ", neither a pgr header nor a PerfMonger 1.0 (gob) stream";
}

std::string ZerosMessage(InputStream& in, uint64_t limit) {
  std::array<char, 4096> buf;
  uint64_t zeros = 0;
  bool data_follows = false;
  while (zeros < limit && !data_follows) {
    size_t n = in.Read(buf);
    if (n == 0) break;
    auto end = buf.begin() + static_cast<std::ptrdiff_t>(n);
    auto data = std::find_if(buf.begin(), end, [](char c) { return c != '\0'; });
    zeros += static_cast<uint64_t>(data - buf.begin());
    data_follows = data != end;
  }
  std::string n = std::to_string(zeros);
  if (zeros == 0) return "not a PerfMonger recording";  // not called that way
  if (data_follows)
    return "not a PerfMonger recording: zero bytes from byte 0 to " +
           std::to_string(zeros - 1) + ", then data at byte " + n +
           " (another process truncated the file while it was being written; "
           "its header is lost)";
  if (zeros >= limit)
    return "not a PerfMonger recording: its first " + n +
           " bytes are zeros (truncated and zero-padded by another process?)";
  return "not a PerfMonger recording: all its " + n +
         " bytes are zeros (truncated and zero-padded by another process, or never "
         "written)";
}

}  // namespace pm
