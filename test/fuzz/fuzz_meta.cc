// `--meta` decoding (proto/meta.hh) on arbitrary arguments: it accepts or
// refuses with a UsageError, nothing else; what it accepts survives being
// escaped again, and survives the trip a user relies on: into a
// recording's header and back out through the reader, byte for byte when
// it is UTF-8. Other bytes are written as U+FFFD (proto/json.hh): then
// what comes back is UTF-8 and makes the same trip unchanged.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.hh"
#include "playback/reading/recording_reader.hh"
#include "proto/meta.hh"
#include "proto/pgr_format.hh"
#include "proto/stream.hh"
#include "test/fuzz/fuzz_check.hh"

using pm::fuzz::Require;

namespace {

// Every byte as %XX: the most escaped spelling of `s`.
std::string EscapeAll(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    out.push_back('%');
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

// Strict UTF-8 (RFC 3629): no overlong forms, surrogates or code points
// past U+10FFFF.
bool IsUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    uint32_t cp = n == 1 ? c : c & (0x7f >> n);
    for (size_t k = 1; k < n; ++k) {
      unsigned char cc = static_cast<unsigned char>(s[i + k]);
      if ((cc >> 6) != 2) return false;
      cp = cp << 6 | (cc & 0x3f);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n;
  }
  return true;
}

bool IsUtf8(const pm::MetaList& meta) {
  for (const auto& [key, value] : meta)
    if (!IsUtf8(key) || !IsUtf8(value)) return false;
  return true;
}

// The header the recorder writes for this meta, read back.
pm::MetaList ThroughHeader(const pm::MetaList& meta) {
  pm::RecordingHeader header;
  header.host = "fuzz";
  header.interval_ns = 1'000'000'000;
  header.collectors_json = "{}";
  header.meta = meta;
  std::string text = pm::EncodeHeaderLine(header);
  pm::MemoryInputStream in(text);
  pm::RecordingReader reader(in);
  return reader.info().meta;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view arg(reinterpret_cast<const char*>(data), size);
  std::pair<std::string, std::string> kv;
  try {
    kv = pm::ParseMetaArg(arg);
  } catch (const pm::UsageError&) {
    return 0;  // refused: the one-line message is the CLI tests' business
  }
  Require(!kv.first.empty(), "an accepted key is not empty");
  Require(pm::ParseMetaArg(EscapeAll(kv.first) + "=" + EscapeAll(kv.second)) == kv,
          "the escaped pair decodes to itself");
  pm::MetaList meta = {kv};
  if (kv.first != "raw") meta.emplace_back("raw", std::string(arg));
  pm::MetaList back = ThroughHeader(meta);
  if (IsUtf8(meta)) {
    Require(back == meta, "UTF-8 meta survives the header, byte for byte");
  } else {
    Require(back.size() == meta.size() && IsUtf8(back), "other bytes come back as UTF-8");
    Require(ThroughHeader(back) == back, "and that survives the header unchanged");
  }
  return 0;
}
