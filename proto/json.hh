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

void AppendInt(std::string& out, int64_t v);
void AppendUint(std::string& out, uint64_t v);

// "key": — the key is escaped like any string.
inline void AppendJsonKey(std::string& out, std::string_view key) {
  AppendJsonString(out, key);
  out.push_back(':');
}

}  // namespace pm
