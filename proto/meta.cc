#include "proto/meta.hh"

#include <optional>
#include <string>

#include "common/error.hh"
#include "proto/text.hh"

namespace pm {
namespace {

// The first '%' not followed by two hex digits, with what follows it (at
// most two bytes), as the user would look for it in the argument.
std::optional<std::string_view> FindBadEscape(std::string_view s) {
  for (size_t i = s.find('%'); i != std::string_view::npos;
       i = s.find('%', i)) {
    bool ok = i + 2 < s.size() && HexValue(s[i + 1]) >= 0 &&
              HexValue(s[i + 2]) >= 0;
    if (!ok) return s.substr(i, 3);
    i += 3;
  }
  return std::nullopt;
}

std::string DecodeValid(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    out.push_back(static_cast<char>(HexValue(s[i + 1]) * 16 +
                                    HexValue(s[i + 2])));
    i += 2;
  }
  return out;
}

// Where `s` stops being UTF-8 (npos: never).
size_t FindInvalidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    size_t n = static_cast<unsigned char>(s[i]) < 0x80 ? 1 : Utf8SequenceLength(s.substr(i));
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

[[noreturn]] void ThrowMetaError(std::string_view arg, std::string_view why) {
  throw UsageError("--meta '" + Printable(arg) + "': " +
                   std::string(why));
}

// Metadata is text (a JSON string in the header): a byte that is not UTF-8
// would be replaced by U+FFFD on its way there, so it is refused instead.
void RequireUtf8(std::string_view arg, std::string_view decoded, const std::string& what) {
  size_t bad = FindInvalidUtf8(decoded);
  if (bad == std::string_view::npos) return;
  std::string byte = "\\x";
  AppendHexByte(byte, static_cast<unsigned char>(decoded[bad]));
  ThrowMetaError(arg, what + " is not UTF-8 (byte " + byte + " at offset " +
                          std::to_string(bad) +
                          "); metadata is text: encode binary data first, e.g. as base64");
}

std::string DecodeHalf(std::string_view arg, std::string_view half,
                       const char* which) {
  if (auto bad = FindBadEscape(half))
    ThrowMetaError(arg, "invalid percent-escape '" + Printable(*bad) +
                            "' in the " + which +
                            " (encode a literal '%' as %25)");
  return DecodeValid(half);
}

}  // namespace

std::pair<std::string, std::string> ParseMetaArg(std::string_view arg) {
  size_t eq = arg.find('=');
  if (eq == std::string_view::npos)
    ThrowMetaError(arg,
                   "no '=' (write --meta key=value; percent-encode '=' in "
                   "keys as %3D)");
  std::string key = DecodeHalf(arg, arg.substr(0, eq), "key");
  std::string value = DecodeHalf(arg, arg.substr(eq + 1), "value");
  if (key.empty())
    ThrowMetaError(arg, "empty key (write --meta key=value)");
  RequireUtf8(arg, key, "the key");
  RequireUtf8(arg, value, "the value of key '" + Printable(key) + "'");
  return {std::move(key), std::move(value)};
}

MetaList ParseMetaArgs(const std::vector<std::string>& args) {
  MetaList meta;
  for (const std::string& arg : args) {
    auto [key, value] = ParseMetaArg(arg);
    for (const auto& entry : meta) {
      if (entry.first == key)
        ThrowMetaError(arg, "duplicate key '" + Printable(key) +
                                "' (give each key once)");
    }
    meta.emplace_back(std::move(key), std::move(value));
  }
  return meta;
}

}  // namespace pm
