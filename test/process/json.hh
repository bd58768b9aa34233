// A parsed JSON line as the process tests inspect it: a small owning tree
// (objects keep their key order). simdjson parses it, but only json.cc
// includes <simdjson.h>: the header costs seconds per translation unit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pm::test {

class JsonValue {
 public:
  enum class Type { kMissing, kNull, kBool, kInt, kDouble, kString, kArray, kObject };
  using Members = std::vector<std::pair<std::string, JsonValue>>;

  Type type() const { return type_; }
  bool exists() const { return type_ != Type::kMissing; }
  bool is_number() const { return type_ == Type::kInt || type_ == Type::kDouble; }
  bool is_object() const { return type_ == Type::kObject; }
  bool is_null() const { return type_ == Type::kNull; }

  // A missing value (exists() false) for an absent key, an index out of
  // range or a value that is not an object/array: lookups chain freely.
  const JsonValue& operator[](std::string_view key) const;
  const JsonValue& at(size_t index) const;

  // The value as that type; throws std::runtime_error for another type
  // (an integer converts to double, not the other way).
  explicit operator bool() const;
  explicit operator double() const;
  explicit operator int64_t() const;
  explicit operator std::string_view() const;
  const std::vector<JsonValue>& array() const;
  const Members& object() const;

 private:
  friend class JsonBuilder;
  Type type_ = Type::kMissing;
  bool bool_ = false;
  int64_t int_ = 0;
  double double_ = 0;
  std::string string_;
  std::vector<JsonValue> array_;
  Members object_;
};

// One parsed JSON text; throws std::runtime_error if it is not JSON.
class Json {
 public:
  explicit Json(std::string_view text);
  const JsonValue& root() const { return root_; }
  const std::string& text() const { return text_; }
  bool Has(std::string_view key) const { return root_[key].exists(); }
  std::string Str(std::string_view key) const {
    return std::string(std::string_view(root_[key]));
  }
  int64_t Int(std::string_view key) const { return int64_t(root_[key]); }
  std::vector<std::string> Keys() const;  // in document order

 private:
  std::string text_;
  JsonValue root_;
};

}  // namespace pm::test
