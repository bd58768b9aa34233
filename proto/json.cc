#include "proto/json.hh"

#include <array>

#include "proto/text.hh"

namespace pm {
namespace {

void AppendU00(std::string& out, unsigned char c) {
  out.append("\\u00");
  AppendHexByte(out, c);
}

// The bytes Go's encoder writes as they are: printable ASCII (and DEL)
// except the quote, the backslash and `<` `>` `&`.
constexpr std::array<bool, 256> kVerbatim = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
  return t;
}();

}  // namespace

bool IsJsonVerbatim(std::string_view s) {
  for (char ch : s)
    if (!kVerbatim[static_cast<unsigned char>(ch)]) return false;
  return true;
}

void AppendJsonString(std::string& out, std::string_view s) {
  if (IsJsonVerbatim(s)) {  // device and key names, nearly always
    out.push_back('"');
    out.append(s);
    out.push_back('"');
    return;
  }
  out.push_back('"');
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '<': case '>': case '&': AppendU00(out, c); break;
        default:
          if (c < 0x20) AppendU00(out, c);
          else out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    size_t len = Utf8SequenceLength(s.substr(i));
    if (len == 0) {
      out.append("\\ufffd");
      ++i;
    } else if (len == 3 && c == 0xe2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(s[i + 2]) & 0xfe) == 0xa8) {
      out.append(s[i + 2] == '\xa8' ? "\\u2028" : "\\u2029");
      i += 3;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  out.push_back('"');
}

void AppendInt(std::string& out, int64_t v) {
  char buf[kUintTextMax];  // INT64_MIN is 20 bytes too
  out.append(buf, WriteInt(buf, v));
}

void AppendUint(std::string& out, uint64_t v) {
  char buf[kUintTextMax];
  out.append(buf, WriteUint(buf, v));
}

}  // namespace pm
