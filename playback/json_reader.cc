#include "playback/json_reader.hh"

#include <simdjson.h>

#include <vector>

namespace pm {
namespace {

namespace dom = simdjson::dom;

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

}  // namespace

// One open object or array: where its walk is and where it ends.
struct Frame {
  bool object;
  dom::object::iterator member, members_end;
  dom::array::iterator element, elements_end;
};

struct JsonReader::Cursor {
  dom::parser parser;
  dom::element next;          // the value the caller reads next
  bool has_next = false;
  std::vector<Frame> frames;  // open containers, innermost last

  // The value the caller reads now, consumed.
  dom::element Take(std::string_view expected) {
    if (!has_next) throw JsonError(expected, 0);
    has_next = false;
    return next;
  }
};

JsonError::JsonError(std::string_view reason, size_t offset)
    : FormatError(std::string(reason) + " at byte " + std::to_string(offset)),
      reason_(reason),
      offset_(offset) {}

JsonReader::JsonReader() : cursor_(std::make_unique<Cursor>()) {
  cursor_->frames.reserve(kMaxDepth);
  if (cursor_->parser.allocate(simdjson::dom::MINIMAL_DOCUMENT_CAPACITY, kMaxDepth))
    throw std::bad_alloc();
}

JsonReader::~JsonReader() = default;

void JsonReader::Fail(std::string_view reason) const { throw JsonError(reason, 0); }

void JsonReader::Reset(std::string_view text) {
  Cursor& c = *cursor_;
  c.frames.clear();
  c.has_next = false;
  // realloc_if_needed: the text is copied into the parser's padded buffer
  // (reused), since a line's bytes are not followed by simdjson's padding.
  simdjson::error_code error = c.parser.parse(text.data(), text.size(), true).get(c.next);
  if (error) Fail(ParseFailure(error));
  c.has_next = true;
}

JsonReader::Type JsonReader::Peek() {
  if (!cursor_->has_next) Fail("expected a value");
  switch (cursor_->next.type()) {
    case dom::element_type::OBJECT: return Type::kObject;
    case dom::element_type::ARRAY: return Type::kArray;
    case dom::element_type::STRING: return Type::kString;
    case dom::element_type::BOOL: return Type::kBool;
    case dom::element_type::NULL_VALUE: return Type::kNull;
    default: return Type::kNumber;
  }
}

bool JsonReader::TryNull() {
  if (!cursor_->has_next || !cursor_->next.is_null()) return false;
  cursor_->has_next = false;
  return true;
}

void JsonReader::BeginObject() {
  dom::object object;
  if (cursor_->Take("expected an object").get(object)) Fail("expected an object");
  cursor_->frames.push_back({true, object.begin(), object.end(), {}, {}});
}

bool JsonReader::NextKey(std::string_view& key) {
  Cursor& c = *cursor_;
  if (c.frames.empty() || !c.frames.back().object || c.has_next) Fail("expected a value");
  Frame& f = c.frames.back();
  if (f.member == f.members_end) {
    c.frames.pop_back();
    return false;
  }
  key = f.member.key();
  c.next = f.member.value();
  c.has_next = true;
  ++f.member;
  return true;
}

void JsonReader::BeginArray() {
  dom::array array;
  if (cursor_->Take("expected an array").get(array)) Fail("expected an array");
  cursor_->frames.push_back({false, {}, {}, array.begin(), array.end()});
}

bool JsonReader::NextElement() {
  Cursor& c = *cursor_;
  if (c.frames.empty() || c.frames.back().object || c.has_next) Fail("expected a value");
  Frame& f = c.frames.back();
  if (f.element == f.elements_end) {
    c.frames.pop_back();
    return false;
  }
  c.next = *f.element;
  c.has_next = true;
  ++f.element;
  return true;
}

std::string_view JsonReader::ReadString() {
  std::string_view s;
  if (cursor_->Take("expected a string").get(s)) Fail("expected a string");
  return s;
}

uint64_t JsonReader::ReadUint64() {
  dom::element e = cursor_->Take("expected an integer");
  switch (e.type()) {
    case dom::element_type::UINT64: return e.get_uint64().value_unsafe();
    case dom::element_type::INT64: {
      int64_t v = e.get_int64().value_unsafe();
      if (v < 0) Fail("expected a non-negative integer");
      return static_cast<uint64_t>(v);
    }
    default: Fail("expected an integer");
  }
}

int64_t JsonReader::ReadInt64() {
  dom::element e = cursor_->Take("expected an integer");
  switch (e.type()) {
    case dom::element_type::INT64: return e.get_int64().value_unsafe();
    case dom::element_type::UINT64: Fail("integer out of range");
    default: Fail("expected an integer");
  }
}

double JsonReader::ReadDouble() {
  double v = 0;
  if (cursor_->Take("expected a number").get(v)) Fail("expected a number");
  return v;
}

bool JsonReader::ReadBool() {
  bool v = false;
  if (cursor_->Take("expected true or false").get(v)) Fail("expected true or false");
  return v;
}

// The parse already validated the value: skipping is only moving on.
void JsonReader::SkipValue() { cursor_->Take("expected a value"); }

void JsonReader::ExpectEnd() {
  if (cursor_->has_next || !cursor_->frames.empty()) Fail("unread values in the text");
}

}  // namespace pm
