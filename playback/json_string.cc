// JsonReader's strings: the fast path returns a view into the text;
// escapes and non-ASCII bytes are validated into the scratch string.
#include "playback/json_reader.hh"

#include <cstdint>
#include <string>

#include "proto/text.hh"

namespace pm {
namespace {

void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

std::string_view JsonReader::ReadString() {
  SkipSpace();
  if (Cur() != '"') Fail("expected a string");
  size_t start = ++pos_;
  for (size_t i = start; i < text_.size(); ++i) {
    auto c = static_cast<unsigned char>(text_[i]);
    if (c == '"') {
      pos_ = i + 1;
      return text_.substr(start, i - start);
    }
    if (c == '\\' || c < 0x20 || c >= 0x80) {
      pos_ = i;
      return ReadEscapedString(start);
    }
  }
  FailAt("unterminated string", start - 1);
}

// The slow path: from pos_ on, decode into scratch_.
std::string_view JsonReader::ReadEscapedString(size_t start) {
  scratch_.assign(text_.substr(start, pos_ - start));
  auto* bytes = reinterpret_cast<const unsigned char*>(text_.data());
  while (pos_ < text_.size()) {
    unsigned char c = bytes[pos_];
    if (c == '"') {
      ++pos_;
      return scratch_;
    }
    if (c == '\\') {
      AppendEscape();
    } else if (c < 0x20) {
      Fail("control byte in a string");
    } else if (c < 0x80) {
      scratch_.push_back(static_cast<char>(c));
      ++pos_;
    } else {
      size_t len = Utf8SequenceLength(text_.substr(pos_));
      if (len == 0) Fail("invalid UTF-8 in a string");
      scratch_.append(text_.substr(pos_, len));
      pos_ += len;
    }
  }
  FailAt("unterminated string", start - 1);
}

void JsonReader::AppendEscape() {
  size_t at = pos_++;
  char c = Cur();
  ++pos_;
  switch (c) {
    case '"': case '\\': case '/': scratch_.push_back(c); return;
    case 'b': scratch_.push_back('\b'); return;
    case 'f': scratch_.push_back('\f'); return;
    case 'n': scratch_.push_back('\n'); return;
    case 'r': scratch_.push_back('\r'); return;
    case 't': scratch_.push_back('\t'); return;
    case 'u': break;
    default: FailAt("invalid escape", at);
  }
  uint32_t cp = ReadHex4();
  if (cp >= 0xDC00 && cp <= 0xDFFF) FailAt("unpaired surrogate", at);
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    if (text_.substr(pos_, 2) != "\\u") FailAt("unpaired surrogate", at);
    pos_ += 2;
    uint32_t low = ReadHex4();
    if (low < 0xDC00 || low > 0xDFFF) FailAt("unpaired surrogate", at);
    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
  }
  AppendUtf8(scratch_, cp);
}

uint32_t JsonReader::ReadHex4() {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    int h = HexValue(Cur());
    if (h < 0) Fail("expected 4 hex digits after \\u");
    v = v << 4 | static_cast<uint32_t>(h);
    ++pos_;
  }
  return v;
}

}  // namespace pm
