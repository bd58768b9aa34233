#include "proto/text.hh"

namespace pm {

size_t Utf8SequenceLength(std::string_view s) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  unsigned char c = byte(0);
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // overlong
    if (c == 0xED) hi = 0x9F;  // surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;  // overlong
    if (c == 0xF4) hi = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < len || byte(1) < lo || byte(1) > hi) return 0;
  for (size_t i = 2; i < len; ++i)
    if ((byte(i) & 0xC0) != 0x80) return 0;
  return len;
}

void AppendPrintable(std::string& out, std::string_view s) {
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '\n') out.append("\\n");
    else if (c == '\t') out.append("\\t");
    else if (c == '\r') out.append("\\r");
    else if (c >= 0x20 && c != 0x7f) out.push_back(ch);
    else {
      out.append("\\x");
      AppendHexByte(out, c);
    }
  }
}

std::string Printable(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  AppendPrintable(out, s);
  return out;
}

}  // namespace pm
