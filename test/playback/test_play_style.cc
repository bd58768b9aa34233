// `play -p` / `-c`: each rule of PerfMonger's layout and palette on a small
// line, so that a regression names the rule it broke (the whole layout is
// checked against PerfMonger's output in test_golden.cc).
#include <doctest/doctest.h>

#include <string>

#include "playback/outputs/play_style.hh"

namespace {

std::string Pretty(std::string_view compact) {
  std::string out;
  pm::AppendStyledPlayJson(out, compact, {.pretty = true, .color = false});
  return out;
}

std::string Styled(std::string_view compact, pm::PlayStyle style) {
  std::string out;
  pm::AppendStyledPlayJson(out, compact, style);
  return out;
}

std::string X(size_t n) { return std::string(n, 'x'); }

std::string WithoutEscapes(const std::string& s) {
  std::string plain;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\x1b') i = s.find('m', i);
    else plain.push_back(s[i]);
  }
  return plain;
}

std::string WithoutSpace(const std::string& s) {
  std::string squeezed;
  for (char c : s)
    if (c != ' ' && c != '\n') squeezed.push_back(c);
  return squeezed;
}

}  // namespace

TEST_SUITE("play style") {
  TEST_CASE("members are `\"key\": value` joined by `, `") {
    CHECK(Pretty(R"({"a":1,"b":"s","c":[1,2]})") == R"({"a": 1, "b": "s",)"
                                                   "\n" R"( "c": [1, 2]})");
  }

  TEST_CASE("a scalar member stays on a line of 79 columns, its comma included") {
    // {"a": "x..x", "b": 1,   : 9 + n + 8 columns
    CHECK(Pretty(R"({"a":")" + X(62) + R"(","b":1,"c":2})") ==
          R"({"a": ")" + X(62) + R"(", "b": 1,)" "\n" R"( "c": 2})");
    CHECK(Pretty(R"({"a":")" + X(63) + R"(","b":1,"c":2})") ==
          R"({"a": ")" + X(63) + R"(",)" "\n" R"( "b": 1, "c": 2})");
  }

  TEST_CASE("closing brackets after a last member count toward its width") {
    // {"o": {"a": "x..x", "b": 1}}   : 15 + n + 9 columns
    CHECK(Pretty(R"({"o":{"a":")" + X(55) + R"(","b":1}})") ==
          R"({"o": {"a": ")" + X(55) + R"(", "b": 1}})");
    CHECK(Pretty(R"({"o":{"a":")" + X(56) + R"(","b":1}})") ==
          R"({"o": {"a": ")" + X(56) + R"(",)" "\n" R"(  "b": 1}})");
  }

  TEST_CASE("an object-valued member starts a line indented one space per level") {
    CHECK(Pretty(R"({"a":1,"o":{"b":2,"p":{"c":3}}})") ==
          "{\"a\": 1,\n \"o\": {\"b\": 2,\n  \"p\": {\"c\": 3}}}");
  }

  TEST_CASE("the first member follows its brace, whatever its value") {
    CHECK(Pretty(R"({"o":{"p":{"q":[1,2]}}})") == R"({"o": {"p": {"q": [1, 2]}}})");
    CHECK(Pretty(R"({"d":{"devices":["a","b"],"a":{"r":1}}})") ==
          "{\"d\": {\"devices\": [\"a\", \"b\"],\n  \"a\": {\"r\": 1}}}");
  }

  TEST_CASE("array elements never wrap") {
    std::string compact = "{\"intr\":[";
    for (int i = 0; i < 40; ++i) compact += i ? ",100.00" : "100.00";
    compact += "]}";
    std::string out = Pretty(compact);
    CHECK(out.find('\n') == std::string::npos);
    CHECK(out.size() > 200);
  }

  TEST_CASE("quirk: after the newline before an array-valued member the column goes on") {
    // The line before ends at column 69: " \"l\": [1]," ends at 79 as counted,
    // so "c" wraps though the visible line is 10 columns long.
    std::string s = X(60);
    CHECK(Pretty(R"({"a":")" + s + R"(","l":[1],"c":2})") ==
          R"({"a": ")" + s + R"(",)" "\n" R"( "l": [1],)" "\n" R"( "c": 2})");
    // An object-valued member resets the count.
    CHECK(Pretty(R"({"a":")" + s + R"(","l":{"x":1},"c":2})") ==
          R"({"a": ")" + s + R"(",)" "\n" R"( "l": {"x": 1}, "c": 2})");
  }

  TEST_CASE("quirk: a line wrapped inside an array may run to 81 columns") {
    // The wrapped line "   \"b\": \"t..t\", \"c\": 1," is t + 19 columns.
    std::string s = X(70);
    auto in_array = [&](size_t t) {
      return Pretty(R"({"r":[{"a":")" + s + R"(","b":")" + X(t) + R"(","c":1,"d":2}]})");
    };
    CHECK(in_array(62) == R"({"r": [{"a": ")" + s + R"(",)" "\n" R"(   "b": ")" + X(62) +
                              R"(", "c": 1,)" "\n" R"(   "d": 2}]})");
    CHECK(in_array(63) == R"({"r": [{"a": ")" + s + R"(",)" "\n" R"(   "b": ")" + X(63) +
                              R"(",)" "\n" R"(   "c": 1, "d": 2}]})");
    // Outside an array the same line keeps to 79.
    CHECK(Pretty(R"({"r":{"a":")" + s + R"(","b":")" + X(61) + R"(","c":1,"d":2}})") ==
          R"({"r": {"a": ")" + s + R"(",)" "\n" R"(  "b": ")" + X(61) +
              R"(", "c": 1,)" "\n" R"(  "d": 2}})");
    CHECK(Pretty(R"({"r":{"a":")" + s + R"(","b":")" + X(62) + R"(","c":1,"d":2}})") ==
          R"({"r": {"a": ")" + s + R"(",)" "\n" R"(  "b": ")" + X(62) +
              R"(",)" "\n" R"(  "c": 1, "d": 2}})");
  }

  TEST_CASE("widths count code points, not bytes") {
    std::string e;
    for (int i = 0; i < 62; ++i) e += "\xc3\xa9";  // é
    CHECK(Pretty(R"({"a":")" + e + R"(","b":1,"c":2})") ==
          R"({"a": ")" + e + R"(", "b": 1,)" "\n" R"( "c": 2})");
  }

  TEST_CASE("palette: keys red, strings magenta, integers green, floats cyan") {
    std::string out = Styled(R"({"s":"x","i":-12,"f":1.50,"n":NaN,"b":true,"l":[3,"y"]})",
                             {.pretty = false, .color = true});
    CHECK(out ==
          "{\x1b[31m\"s\"\x1b[0m:\x1b[35m\"x\"\x1b[0m,"
          "\x1b[31m\"i\"\x1b[0m:\x1b[32m-12\x1b[0m,"
          "\x1b[31m\"f\"\x1b[0m:\x1b[36m1.50\x1b[0m,"
          "\x1b[31m\"n\"\x1b[0m:\x1b[36mNaN\x1b[0m,"
          "\x1b[31m\"b\"\x1b[0m:true,"
          "\x1b[31m\"l\"\x1b[0m:[\x1b[32m3\x1b[0m,\x1b[35m\"y\"\x1b[0m]}");
  }

  TEST_CASE("escapes take no columns: -p -c wraps where -p does") {
    for (size_t n : {59, 60}) {  // " \"b\": 1.25," fits after 59, not 60
      std::string compact = R"({"a":")" + X(n) + R"(","b":1.25,"c":2})";
      CHECK(WithoutEscapes(Styled(compact, {.pretty = true, .color = true})) ==
            Pretty(compact));
    }
  }

  TEST_CASE("a cut or malformed line is copied through, in order, without a hang") {
    std::string line = R"({"t":1.5,"s":"a\"b","o":{"k":[1,{"x":"y"}],"m":2},"z":[]})";
    for (size_t n = 0; n <= line.size(); ++n) {
      std::string cut = line.substr(0, n);
      CAPTURE(cut);
      CHECK(WithoutSpace(Pretty(cut)) == WithoutSpace(cut));
      CHECK(WithoutEscapes(Styled(cut, {.pretty = false, .color = true})) == cut);
    }
    for (std::string bad : {"}", "]]", ",:,", "{,}", "{\"a\"1}", "[{]", "\"", R"({"a":\})"})
      CHECK(WithoutSpace(Pretty(bad)) == WithoutSpace(bad));
  }
}
