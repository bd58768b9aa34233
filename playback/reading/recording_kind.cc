#include "playback/reading/recording_kind.hh"

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

AfterLeadingZeros::AfterLeadingZeros(InputStream& in, uint64_t limit) : in_(in) {
  while (zeros_ < limit) {
    len_ = in_.Read(buf_);
    auto end = buf_.begin() + static_cast<std::ptrdiff_t>(len_);
    auto data = std::find_if(buf_.begin(), end, [](char c) { return c != '\0'; });
    pos_ = static_cast<size_t>(data - buf_.begin());
    zeros_ += pos_;
    data_follows_ = data != end;
    if (len_ == 0 || data_follows_) return;
  }
  pos_ = len_ = 0;  // past the limit: nothing is read after it
}

size_t AfterLeadingZeros::Read(std::span<char> buf) {
  if (pos_ == len_) return len_ == 0 ? 0 : in_.Read(buf);
  size_t n = std::min(buf.size(), len_ - pos_);
  std::copy_n(buf_.begin() + static_cast<std::ptrdiff_t>(pos_), n, buf.begin());
  pos_ += n;
  return n;
}

std::span<const char> AfterLeadingZeros::Borrow(std::span<char> scratch) {
  if (pos_ == len_) return len_ == 0 ? std::span<const char>() : in_.Borrow(scratch);
  std::span<const char> rest(buf_.data() + pos_, len_ - pos_);
  pos_ = len_;
  return rest;
}

std::string ZerosMessage(const AfterLeadingZeros& hole, uint64_t limit) {
  std::string n = std::to_string(hole.zeros());
  if (hole.data_follows())
    return "another process truncated it while it was being written: bytes 0 to " +
           std::to_string(hole.zeros() - 1) + " are zeros, and the header went with them; "
           "the data from byte " + n + " on cannot be read without it";
  if (hole.zeros() >= limit)
    return "not a PerfMonger recording: its first " + n +
           " bytes are zeros (truncated and zero-padded by another process?)";
  return "not a PerfMonger recording: all its " + n +
         " bytes are zeros (truncated and zero-padded by another process, or never "
         "written)";
}

std::string HoleWarning(const AfterLeadingZeros& hole) {
  return "another process truncated it while it was being written: bytes 0 to " +
         std::to_string(hole.zeros() - 1) + " are zeros; read the recording from byte " +
         std::to_string(hole.zeros()) + " on";
}

}  // namespace pm
