// Appending JSON text to a std::string: the hot path of every sample line,
// so no DOM, no streams, no allocation beyond the string's own growth.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pm {

// A JSON string literal, escaped as Go's encoding/json does (PerfMonger's
// output is compared byte for byte): `"` `\` and \n \r \t as backslash
// escapes, other control bytes and `<` `>` `&` U+2028 U+2029 as \u00XX /
// \u2028, invalid UTF-8 as \ufffd.
void AppendJsonString(std::string& out, std::string_view s);
// True when AppendJsonString writes `s` between its quotes as it is.
bool IsJsonVerbatim(std::string_view s);

void AppendInt(std::string& out, int64_t v);
void AppendUint(std::string& out, uint64_t v);

// "key": — the key is escaped like any string.
inline void AppendJsonKey(std::string& out, std::string_view key) {
  AppendJsonString(out, key);
  out.push_back(':');
}

// One JSON object appended to `out`, spelled as a list of fields: the
// writer places the braces, the commas and the escaped keys. Close() ends
// the object (a destructor would end it during an exception too).
//   JsonObjectWriter(out).Int("seq", 1).Str("cmd", "ping").Close();
class JsonObjectWriter {
 public:
  explicit JsonObjectWriter(std::string& out) : out_(out) { out_.push_back('{'); }
  JsonObjectWriter& Str(std::string_view key, std::string_view value) {
    AppendJsonString(Key(key), value);
    return *this;
  }
  JsonObjectWriter& Int(std::string_view key, int64_t value) {
    AppendInt(Key(key), value);
    return *this;
  }
  JsonObjectWriter& Uint(std::string_view key, uint64_t value) {
    AppendUint(Key(key), value);
    return *this;
  }
  JsonObjectWriter& Bool(std::string_view key, bool value) {
    Key(key).append(value ? "true" : "false");
    return *this;
  }
  // A value already encoded as JSON (a nested object, a fixed-point number).
  JsonObjectWriter& Raw(std::string_view key, std::string_view json) {
    Key(key).append(json);
    return *this;
  }
  // `,"key":` (no comma first); the caller appends the value to the result.
  std::string& Key(std::string_view key) {
    if (!first_) out_.push_back(',');
    first_ = false;
    AppendJsonKey(out_, key);
    return out_;
  }
  void Close() { out_.push_back('}'); }

 private:
  std::string& out_;
  bool first_ = true;
};

}  // namespace pm
