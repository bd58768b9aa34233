#include "playback/json_reader.hh"

#include <bit>
#include <charconv>
#include <cstring>

namespace pm {
namespace {

bool IsDigit(char c) { return static_cast<unsigned char>(c - '0') <= 9; }

// Eight ASCII digits at `p` as a number, or false if any is not a digit
// (the SWAR trick of simdjson and fast_float; little-endian loads).
bool EightDigits(const char* p, uint64_t& out) {
  if constexpr (std::endian::native != std::endian::little) return false;
  uint64_t chunk;
  std::memcpy(&chunk, p, sizeof chunk);
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0;
  if (((chunk & kHigh) | (((chunk + 0x0606060606060606) & kHigh) >> 4)) != 0x3333333333333333)
    return false;
  uint64_t v = chunk - 0x3030303030303030;
  v = v * 10 + (v >> 8);
  out = ((v & 0x000000FF000000FF) * (100 + (1000000ULL << 32)) +
         ((v >> 16) & 0x000000FF000000FF) * (1 + (10000ULL << 32))) >> 32;
  return true;
}

}  // namespace

JsonError::JsonError(std::string_view reason, size_t offset)
    : FormatError(std::string(reason) + " at byte " + std::to_string(offset)),
      reason_(reason),
      offset_(offset) {}

void JsonReader::FailAt(std::string_view reason, size_t offset) const {
  throw JsonError(reason, offset);
}

void JsonReader::FailExpected(char close) const {
  if (pos_ >= text_.size()) Fail("unexpected end of text");
  Fail(close == ']' ? "expected ',' or ']'" : "expected ',' or '}'");
}

void JsonReader::SkipSpaceSlow() {
  while (pos_ < text_.size()) {
    char c = text_[pos_];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
    ++pos_;
  }
}

JsonReader::Type JsonReader::Peek() {
  SkipSpace();
  switch (Cur()) {
    case '{': return Type::kObject;
    case '[': return Type::kArray;
    case '"': return Type::kString;
    case 't': case 'f': return Type::kBool;
    case 'n': return Type::kNull;
    default: break;
  }
  if (Cur() == '-' || IsDigit(Cur())) return Type::kNumber;
  Fail(pos_ >= text_.size() ? "unexpected end of text" : "expected a value");
}

bool JsonReader::TryNull() {
  SkipSpace();
  if (Cur() != 'n') return false;
  ExpectLiteral("null");
  return true;
}

void JsonReader::Begin(char open) {
  SkipSpace();
  if (Cur() != open) Fail(open == '{' ? "expected an object" : "expected an array");
  if (depth_ == kMaxDepth) Fail("nesting deeper than 64 levels");
  ++pos_;
  first_bits_ |= uint64_t{1} << depth_;
  ++depth_;
}

bool JsonReader::NextKey(std::string_view& key) {
  SkipSpace();
  if (Cur() == '}') return Close();
  TakeComma('}');
  key = ReadString();
  SkipSpace();
  if (Cur() != ':') Fail("expected ':'");
  ++pos_;
  return true;
}

// 19 digits cannot overflow a uint64_t: only the digits after them need
// checked arithmetic. The hot loop of every sample line.
uint64_t JsonReader::ReadDigits(uint64_t max) {
  const char* const start = text_.data() + pos_;
  const char* const end = text_.data() + text_.size();
  const char* p = start;
  if (p == end || !IsDigit(*p))
    Fail(Cur() == '-' ? "expected a non-negative integer" : "expected an integer");
  uint64_t v = 0;
  for (uint64_t eight; end - p >= 8 && p - start < 16 && EightDigits(p, eight); p += 8)
    v = v * 100'000'000 + eight;
  for (const char* fast_end = end - start > 19 ? start + 19 : end; p < fast_end && IsDigit(*p); ++p)
    v = v * 10 + static_cast<unsigned>(*p - '0');
  for (; p < end && IsDigit(*p); ++p) {
    if (__builtin_mul_overflow(v, 10u, &v) ||
        __builtin_add_overflow(v, static_cast<unsigned>(*p - '0'), &v))
      FailAt("integer out of range", pos_);
  }
  if (v > max) FailAt("integer out of range", pos_);
  if (*start == '0' && p - start > 1) FailAt("leading zero in a number", pos_);
  if (p < end && (*p == '.' || *p == 'e' || *p == 'E')) FailAt("expected an integer", pos_);
  pos_ = static_cast<size_t>(p - text_.data());
  return v;
}

int64_t JsonReader::ReadInt64() {
  SkipSpace();
  bool negative = Cur() == '-';
  if (negative) ++pos_;
  uint64_t magnitude = ReadDigits(negative ? uint64_t{1} << 63 : INT64_MAX);
  return static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
}

void JsonReader::ScanNumber() {
  size_t start = pos_;
  if (Cur() == '-') ++pos_;
  if (!IsDigit(Cur())) Fail("expected a number");
  if (Cur() == '0') {
    ++pos_;
    if (IsDigit(Cur())) FailAt("leading zero in a number", start);
  }
  while (IsDigit(Cur())) ++pos_;
  if (Cur() == '.') {
    ++pos_;
    if (!IsDigit(Cur())) Fail("expected a digit after '.'");
    while (IsDigit(Cur())) ++pos_;
  }
  if (Cur() == 'e' || Cur() == 'E') {
    ++pos_;
    if (Cur() == '+' || Cur() == '-') ++pos_;
    if (!IsDigit(Cur())) Fail("expected a digit in the exponent");
    while (IsDigit(Cur())) ++pos_;
  }
}

double JsonReader::ReadDouble() {
  SkipSpace();
  size_t start = pos_;
  ScanNumber();
  double v = 0;
  auto [end, ec] = std::from_chars(text_.data() + start, text_.data() + pos_, v);
  if (ec != std::errc() || end != text_.data() + pos_)
    FailAt("number out of range", start);
  return v;
}

void JsonReader::ExpectLiteral(std::string_view word) {
  if (text_.substr(pos_, word.size()) != word) Fail("invalid literal");
  pos_ += word.size();
}

bool JsonReader::ReadBool() {
  SkipSpace();
  if (Cur() == 't') return ExpectLiteral("true"), true;
  if (Cur() == 'f') return ExpectLiteral("false"), false;
  Fail("expected true or false");
}

void JsonReader::SkipValue() {
  switch (Peek()) {
    case Type::kObject:
      BeginObject();
      for (std::string_view key; NextKey(key);) SkipValue();
      return;
    case Type::kArray:
      BeginArray();
      while (NextElement()) SkipValue();
      return;
    case Type::kString: ReadString(); return;
    case Type::kNumber: ScanNumber(); return;
    case Type::kBool: ReadBool(); return;
    case Type::kNull: ExpectLiteral("null"); return;
  }
}

void JsonReader::ExpectEnd() {
  if (depth_ != 0) Fail("unexpected end of text");
  SkipSpace();
  if (pos_ != text_.size()) Fail("unexpected bytes after the value");
}

}  // namespace pm
