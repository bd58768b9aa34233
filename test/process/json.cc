#include "test/process/json.hh"

#include <simdjson.h>

#include <stdexcept>

namespace pm::test {

class JsonBuilder {
 public:
  static JsonValue From(simdjson::dom::element e) {
    using simdjson::dom::element_type;
    JsonValue v;
    switch (e.type()) {
      case element_type::NULL_VALUE: v.type_ = JsonValue::Type::kNull; break;
      case element_type::BOOL:
        v.type_ = JsonValue::Type::kBool;
        v.bool_ = bool(e);
        break;
      case element_type::INT64:
        v.type_ = JsonValue::Type::kInt;
        v.int_ = int64_t(e);
        v.double_ = static_cast<double>(v.int_);
        break;
      case element_type::UINT64:  // above INT64_MAX: only a double fits
      case element_type::DOUBLE:
        v.type_ = JsonValue::Type::kDouble;
        v.double_ = double(e);
        break;
      case element_type::STRING:
        v.type_ = JsonValue::Type::kString;
        v.string_ = std::string_view(e);
        break;
      case element_type::ARRAY:
        v.type_ = JsonValue::Type::kArray;
        for (simdjson::dom::element item : simdjson::dom::array(e))
          v.array_.push_back(From(item));
        break;
      case element_type::OBJECT:
        v.type_ = JsonValue::Type::kObject;
        for (auto field : simdjson::dom::object(e))
          v.object_.emplace_back(std::string(field.key), From(field.value));
        break;
    }
    return v;
  }
};

namespace {

const JsonValue kMissing;

[[noreturn]] void WrongType(const char* wanted) {
  throw std::runtime_error(std::string("JSON value is not ") + wanted);
}

}  // namespace

const JsonValue& JsonValue::operator[](std::string_view key) const {
  for (const auto& [k, v] : object_)
    if (k == key) return v;
  return kMissing;
}

const JsonValue& JsonValue::at(size_t index) const {
  return index < array_.size() ? array_[index] : kMissing;
}

JsonValue::operator bool() const {
  if (type_ != Type::kBool) WrongType("a boolean");
  return bool_;
}

JsonValue::operator double() const {
  if (!is_number()) WrongType("a number");
  return double_;
}

JsonValue::operator int64_t() const {
  if (type_ != Type::kInt) WrongType("an integer");
  return int_;
}

JsonValue::operator std::string_view() const {
  if (type_ != Type::kString) WrongType("a string");
  return string_;
}

const std::vector<JsonValue>& JsonValue::array() const {
  if (type_ != Type::kArray) WrongType("an array");
  return array_;
}

const JsonValue::Members& JsonValue::object() const {
  if (type_ != Type::kObject) WrongType("an object");
  return object_;
}

Json::Json(std::string_view text) : text_(text) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (auto error = parser.parse(simdjson::padded_string(text)).get(root))
    throw std::runtime_error(std::string("not JSON (") + simdjson::error_message(error) +
                             "): " + text_);
  root_ = JsonBuilder::From(root);
}

std::vector<std::string> Json::Keys() const {
  std::vector<std::string> keys;
  for (const auto& field : root_.object()) keys.push_back(field.first);
  return keys;
}

}  // namespace pm::test
