// The JSON pull parser on tables of texts: strings and escapes, integers
// at their limits, structure, depth; every error with its offset.
#include <doctest/doctest.h>

#include <string>

#include "playback/json_reader.hh"

using pm::JsonError;
using pm::JsonReader;

namespace {

// "ok:<value>" or "error:<reason>@<offset>".
template <class Read>
std::string Outcome(std::string_view text, Read read) {
  try {
    JsonReader r(text);
    std::string value = read(r);
    r.ExpectEnd();
    return "ok:" + value;
  } catch (const JsonError& e) {
    return "error:" + e.reason() + "@" + std::to_string(e.offset());
  }
}

std::string String(std::string_view text) {
  return Outcome(text, [](JsonReader& r) { return std::string(r.ReadString()); });
}
std::string Uint(std::string_view text) {
  return Outcome(text, [](JsonReader& r) { return std::to_string(r.ReadUint64()); });
}
std::string Int(std::string_view text) {
  return Outcome(text, [](JsonReader& r) { return std::to_string(r.ReadInt64()); });
}
std::string Skip(std::string_view text) {
  return Outcome(text, [](JsonReader& r) { return r.SkipValue(), std::string(); });
}

struct Case {
  std::string text;
  std::string want;
};

}  // namespace

TEST_SUITE("json reader") {

TEST_CASE("strings: escapes, UTF-8, surrogates") {
  const Case cases[] = {
      {R"("")", "ok:"},
      {R"( "plain" )", "ok:plain"},
      {R"("a\"b\\c\/d")", "ok:a\"b\\c/d"},
      {R"("\b\f\n\r\t")", "ok:\b\f\n\r\t"},
      {R"("\u0041\u00e9\u20AC")", "ok:A\xc3\xa9\xe2\x82\xac"},
      {R"("\u003c\u003e\u0026")", "ok:<>&"},
      {R"("\ud83d\ude00")", "ok:\xf0\x9f\x98\x80"},
      {R"("\u0000")", std::string("ok:\0", 4)},
      {"\"\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80\"", "ok:\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80"},
      {R"("\ud83d")", "error:unpaired surrogate@1"},
      {R"("\ud83dx")", "error:unpaired surrogate@1"},
      {R"("\ud83d\u0041")", "error:unpaired surrogate@1"},
      {R"("ab\ude00")", "error:unpaired surrogate@3"},
      {R"("\u12G4")", "error:expected 4 hex digits after \\u@5"},
      {R"("\x")", "error:invalid escape@1"},
      {"\"a\tb\"", "error:control byte in a string@2"},
      {"\"\xff\"", "error:invalid UTF-8 in a string@1"},
      {"\"\xc0\xaf\"", "error:invalid UTF-8 in a string@1"},          // overlong
      {"\"\xed\xa0\x80\"", "error:invalid UTF-8 in a string@1"},      // surrogate
      {"\"\xf4\x90\x80\x80\"", "error:invalid UTF-8 in a string@1"},  // > U+10FFFF
      {"\"\xe2\x9c\"", "error:invalid UTF-8 in a string@1"},          // cut
      {R"("abc)", "error:unterminated string@0"},
      {R"("a\)", "error:invalid escape@2"},
      {"x", "error:expected a string@0"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(String(c.text) == c.want);
  }
}

TEST_CASE("integers: limits, overflow, strict form") {
  const Case unsigned_cases[] = {
      {"0", "ok:0"},
      {"18446744073709551615", "ok:18446744073709551615"},
      {"18446744073709551616", "error:integer out of range@0"},
      {"99999999999999999999", "error:integer out of range@0"},
      {"-1", "error:expected a non-negative integer@0"},
      {"01", "error:leading zero in a number@0"},
      {"1.0", "error:expected an integer@0"},
      {"1e3", "error:expected an integer@0"},
      {"", "error:expected an integer@0"},
      {"12 3", "error:unexpected bytes after the value@3"},
  };
  for (const Case& c : unsigned_cases) {
    CAPTURE(c.text);
    CHECK(Uint(c.text) == c.want);
  }
  const Case signed_cases[] = {
      {"-9223372036854775808", "ok:-9223372036854775808"},
      {"9223372036854775807", "ok:9223372036854775807"},
      {"9223372036854775808", "error:integer out of range@0"},
      {"-9223372036854775809", "error:integer out of range@1"},
      {"-0", "ok:0"},
      {"-", "error:expected an integer@1"},
      {"--1", "error:expected a non-negative integer@1"},
  };
  for (const Case& c : signed_cases) {
    CAPTURE(c.text);
    CHECK(Int(c.text) == c.want);
  }
}

TEST_CASE("doubles when asked for") {
  JsonReader r("[1.5e3,-0.25,1E-2,1e400]");
  r.BeginArray();
  REQUIRE(r.NextElement());
  CHECK(r.ReadDouble() == 1500.0);
  REQUIRE(r.NextElement());
  CHECK(r.ReadDouble() == -0.25);
  REQUIRE(r.NextElement());
  CHECK(r.ReadDouble() == 0.01);
  REQUIRE(r.NextElement());
  CHECK_THROWS_AS(r.ReadDouble(), JsonError);
}

TEST_CASE("structure: what a skip accepts and refuses") {
  const Case cases[] = {
      {R"({"a":[1,-2.5e+3,true,false,null,{"b":{}}],"c":[]})", "ok:"},
      {" \t\r\n[ 1 , 2 ] \n", "ok:"},
      {"[1,]", "error:expected a value@3"},
      {"[,1]", "error:expected a value@1"},
      {"[1 2]", "error:expected ',' or ']'@3"},
      {R"({"a":1,})", "error:expected a string@7"},
      {R"({"a" 1})", "error:expected ':'@5"},
      {R"({"a":1)", "error:unexpected end of text@6"},
      {R"({"a":1])", "error:expected ',' or '}'@6"},
      {"[1}", "error:expected ',' or ']'@2"},
      {"{1:2}", "error:expected a string@1"},
      {"tru", "error:invalid literal@0"},
      {"nul", "error:invalid literal@0"},
      {"1.", "error:expected a digit after '.'@2"},
      {"1e", "error:expected a digit in the exponent@2"},
      {"+1", "error:expected a value@0"},
      {"", "error:unexpected end of text@0"},
      {"{} {}", "error:unexpected bytes after the value@3"},
      {"// c\n1", "error:expected a value@0"},
      {std::string(64, '[') + std::string(64, ']'), "ok:"},
      {std::string(65, '['), "error:nesting deeper than 64 levels@64"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(Skip(c.text) == c.want);
  }
}

TEST_CASE("keys with escapes; null and booleans") {
  JsonReader r(R"({"k\u0065y":null,"b":true,"c":[false]})");
  r.BeginObject();
  std::string_view key;
  REQUIRE(r.NextKey(key));
  CHECK(key == "key");
  CHECK(r.Peek() == JsonReader::Type::kNull);
  CHECK(r.TryNull());
  REQUIRE(r.NextKey(key));
  CHECK_FALSE(r.TryNull());
  CHECK(r.ReadBool());
  REQUIRE(r.NextKey(key));
  r.BeginArray();
  REQUIRE(r.NextElement());
  CHECK_FALSE(r.ReadBool());
  CHECK_FALSE(r.NextElement());
  CHECK_FALSE(r.NextKey(key));
  r.ExpectEnd();
}

}  // TEST_SUITE
