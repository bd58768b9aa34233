// The one escaper of outside text (proto/text.hh: Printable, and
// PrintableLines for a report) on arbitrary bytes. Properties beyond "no
// crash":
//   - no terminal control: no C0 byte, no DEL, no C1 control (U+0080 to
//     U+009F), and only UTF-8, in what it writes (PrintableLines: '\n'
//     aside);
//   - stable: escaping its output again changes nothing (so a message may
//     be escaped whole), and text with nothing to escape comes out as is;
//   - reversible: without a backslash in the input, reading the escapes
//     back gives the input byte for byte (so nothing is lost or made up);
//   - bounded: at most four bytes out per byte in;
//   - PrintableLines is Printable line by line, its line feeds kept.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "proto/text.hh"
#include "test/fuzz/fuzz_check.hh"

using pm::fuzz::Require;

namespace {

bool IsC1(std::string_view s, size_t i) {
  return static_cast<unsigned char>(s[i]) == 0xC2 && i + 1 < s.size() &&
         static_cast<unsigned char>(s[i + 1]) < 0xA0;
}

// Shown as it is: printable ASCII, or valid UTF-8 that is no C1 control.
bool Plain(std::string_view s, char line_feed_ok = 0) {
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != 0x7f && c < 0x80) {
      ++i;
      continue;
    }
    if (line_feed_ok != 0 && s[i] == line_feed_ok) {
      ++i;
      continue;
    }
    size_t n = c < 0x80 ? 0 : pm::Utf8SequenceLength(s.substr(i));
    if (n == 0 || IsC1(s, i)) return false;
    i += n;
  }
  return true;
}

// The escapes read back: \n \t \r \xNN; nullopt for anything else after a
// backslash.
std::optional<std::string> Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\') {
      out.push_back(s[i]);
      continue;
    }
    if (++i == s.size()) return std::nullopt;
    if (s[i] == 'n') out.push_back('\n');
    else if (s[i] == 't') out.push_back('\t');
    else if (s[i] == 'r') out.push_back('\r');
    else if (s[i] == 'x' && i + 2 < s.size() && pm::HexValue(s[i + 1]) >= 0 &&
             pm::HexValue(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(pm::HexValue(s[i + 1]) * 16 + pm::HexValue(s[i + 2])));
      i += 2;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

void CheckLines(std::string_view in) {
  std::string lines = pm::PrintableLines(in);
  Require(Plain(lines, '\n'), "PrintableLines writes no control byte but its line feeds");
  std::string expected;
  for (size_t nl; (nl = in.find('\n')) != std::string_view::npos; in.remove_prefix(nl + 1))
    expected += pm::Printable(in.substr(0, nl)) + "\n";
  expected += pm::Printable(in);
  Require(lines == expected, "PrintableLines is Printable line by line");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view in(reinterpret_cast<const char*>(data), size);
  std::string out = pm::Printable(in);
  Require(Plain(out), "Printable writes no control byte, only UTF-8");
  Require(pm::Printable(out) == out, "escaping escaped text changes nothing");
  Require(!Plain(in) || out == in, "text with nothing to escape comes out as is");
  Require(out.size() <= 4 * in.size(), "at most four bytes out per byte in");
  if (in.find('\\') == std::string_view::npos)
    Require(Unescape(out) == std::string(in), "the escapes read back give the input");
  CheckLines(in);
  return 0;
}
