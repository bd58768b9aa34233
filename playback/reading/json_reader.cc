#include "playback/reading/json_reader.hh"

#include <simdjson.h>

#include <bit>

namespace pm {
namespace {

// simdjson's codes, said the way this project's other errors are.
std::string_view ParseFailure(simdjson::error_code code) {
  switch (code) {
    case simdjson::EMPTY: return "expected an object";
    case simdjson::TAPE_ERROR: return "malformed JSON (a comma, brace, colon or key)";
    case simdjson::DEPTH_ERROR: return "nesting deeper than 64 levels";
    case simdjson::STRING_ERROR: return "invalid escape in a string";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR: return "invalid literal";
    case simdjson::NUMBER_ERROR: return "invalid number";
    case simdjson::UTF8_ERROR: return "invalid UTF-8";
    case simdjson::UNESCAPED_CHARS: return "control byte in a string";
    case simdjson::UNCLOSED_STRING: return "unterminated string";
    case simdjson::CAPACITY: return "line too long";
    default: return simdjson::error_message(code);
  }
}

// What the cursor reads before any Reset: an empty root.
constexpr uint64_t kEmptyTape[] = {uint64_t{'r'} << 56};

}  // namespace

struct JsonReader::Parser {
  simdjson::dom::parser dom;
};

JsonError::JsonError(std::string_view reason, size_t offset)
    : FormatError(std::string(reason) + " at byte " + std::to_string(offset)),
      reason_(reason),
      offset_(offset) {}

JsonReader::JsonReader() : parser_(std::make_unique<Parser>()), tape_(kEmptyTape) {
  if (parser_->dom.allocate(simdjson::dom::MINIMAL_DOCUMENT_CAPACITY, kMaxDepth))
    throw std::bad_alloc();
}

JsonReader::~JsonReader() = default;

void JsonReader::Fail(std::string_view reason) const { throw JsonError(reason, 0); }

void JsonReader::Reset(std::string_view text) {
  tape_ = kEmptyTape;
  pos_ = end_ = 0;
  // realloc_if_needed: the text is copied into the parser's padded buffer
  // (reused), since a line's bytes are not followed by simdjson's padding.
  simdjson::dom::element root;
  if (simdjson::error_code e = parser_->dom.parse(text.data(), text.size(), true).get(root))
    Fail(ParseFailure(e));
  tape_ = parser_->dom.doc.tape.get();
  strings_ = parser_->dom.doc.string_buf.get();
  end_ = Payload(0) - 1;  // the first word indexes the one after the last
  pos_ = 1;
}

JsonReader::Type JsonReader::Peek() const {
  switch (Tag()) {
    case '{': return Type::kObject;
    case '[': return Type::kArray;
    case '"': return Type::kString;
    case 't': case 'f': return Type::kBool;
    case 'n': return Type::kNull;
    case 'l': case 'u': case 'd': return Type::kNumber;
    default: Fail("expected a value");
  }
}

double JsonReader::ReadDouble() {
  uint64_t tag = Tag();
  if (tag != 'd' && tag != 'l' && tag != 'u') Fail("expected a number");
  uint64_t bits = tape_[pos_ + 1];  // a number's second word
  double v = 0;
  if (tag == 'd')
    v = std::bit_cast<double>(bits);
  else if (tag == 'l')
    v = static_cast<double>(static_cast<int64_t>(bits));
  else
    v = static_cast<double>(bits);
  pos_ += 2;
  return v;
}

bool JsonReader::ReadBool() {
  uint64_t tag = Tag();
  if (tag != 't' && tag != 'f') Fail("expected true or false");
  ++pos_;
  return tag == 't';
}

// The parse validated everything: skipping is only moving on (a container
// word's low 32 bits index the word after its end).
void JsonReader::SkipValue() {
  switch (Peek()) {
    case Type::kObject: case Type::kArray: pos_ = Payload(pos_) & 0xFFFFFFFF; return;
    case Type::kNumber: pos_ += 2; return;
    default: ++pos_; return;
  }
}

}  // namespace pm
