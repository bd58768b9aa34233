// The one escaper of outside text (proto/text.hh, Printable): what reaches
// a terminal from a recording or the kernel holds no control byte, C0 or
// C1, and no byte that is not UTF-8; ordinary names stay as they are.
#include <doctest/doctest.h>

#include <string>

#include "proto/text.hh"

namespace {

struct Case {
  std::string in, out;
};

}  // namespace

TEST_CASE("Printable: control bytes escaped, text kept") {
  const Case cases[] = {
      {"vda", "vda"},
      {"", ""},
      {"eth0.100 /sys.slice/a b", "eth0.100 /sys.slice/a b"},
      {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"},
      {"back\\slash \\x41", "back\\slash \\x41"},  // kept: idempotent
      {"a\nb\tc\rd", "a\\nb\\tc\\rd"},
      {std::string("nul\0x", 5), "nul\\x00x"},
      {"\x1b]0;title\x07", "\\x1b]0;title\\x07"},     // OSC: set the title
      {"\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"},           // clear the screen
      {"del\x7f", "del\\x7f"},
      {"\xc2\x9b" "31m", "\\xc2\\x9b31m"},           // U+009B, CSI
      {"\xc2\x80 \xc2\x9f \xc2\xa0", "\\xc2\\x80 \\xc2\\x9f \xc2\xa0"},  // C1 only
      {"\x9b" "31m", "\\x9b31m"},                     // a lone C1 byte: not UTF-8
      {"\xff\xfe", "\\xff\\xfe"},
      {"caf\xc3", "caf\\xc3"},                        // cut sequence
      {"\xed\xa0\x80", "\\xed\\xa0\\x80"},            // a surrogate
      {"\xc0\x80", "\\xc0\\x80"},                     // overlong NUL
  };
  for (const Case& c : cases) {
    CAPTURE(c.in);
    CHECK(pm::Printable(c.in) == c.out);
    CHECK(pm::Printable(c.out) == c.out);  // escaping twice changes nothing
  }
}

TEST_CASE("Printable: no byte below 0x20, no DEL, no C1 in any byte string's escape") {
  // Every byte, and every pair of bytes: all one- and two-byte sequences.
  for (int a = 0; a < 256; ++a)
    for (int b = -1; b < 256; ++b) {
      std::string in(1, static_cast<char>(a));
      if (b >= 0) in.push_back(static_cast<char>(b));
      std::string out = pm::Printable(in);
      for (size_t i = 0; i < out.size(); ++i) {
        auto c = static_cast<unsigned char>(out[i]);
        REQUIRE(c >= 0x20);
        REQUIRE(c != 0x7f);
        if (c == 0xC2 && i + 1 < out.size())
          REQUIRE(static_cast<unsigned char>(out[i + 1]) >= 0xA0);
      }
    }
}

TEST_CASE("PrintableLines: each line escaped, its line feed kept") {
  CHECK(pm::PrintableLines("") == "");
  CHECK(pm::PrintableLines("a\n\nb\n") == "a\n\nb\n");
  CHECK(pm::PrintableLines("* Average DEVICE usage: vd\x1b]0;x\x07\n  r\tw\n") ==
        "* Average DEVICE usage: vd\\x1b]0;x\\x07\n  r\\tw\n");
  CHECK(pm::PrintableLines("no end \x1b[2J") == "no end \\x1b[2J");
}
