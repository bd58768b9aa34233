// The JSON pull reader (on simdjson) on tables of texts: strings and
// escapes, integers at their limits, structure, depth; every error named.
#include <doctest/doctest.h>

#include <string>

#include "playback/reading/json_reader.hh"

using pm::JsonError;
using pm::JsonReader;

namespace {

// "ok:<value>" or "error:<reason>".
template <class Read>
std::string Outcome(std::string_view text, Read read) {
  try {
    JsonReader r(text);
    std::string value = read(r);
    r.ExpectEnd();
    return "ok:" + value;
  } catch (const JsonError& e) {
    return "error:" + e.reason();
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
      {R"("\ud83d")", "error:invalid escape in a string"},  // unpaired surrogates
      {R"("\ud83dx")", "error:invalid escape in a string"},
      {R"("\ud83d\u0041")", "error:invalid escape in a string"},
      {R"("ab\ude00")", "error:invalid escape in a string"},
      {R"("\u12G4")", "error:invalid escape in a string"},
      {R"("\x")", "error:invalid escape in a string"},
      {"\"a\tb\"", "error:control byte in a string"},
      {"\"\xff\"", "error:invalid UTF-8"},
      {"\"\xc0\xaf\"", "error:invalid UTF-8"},          // overlong
      {"\"\xed\xa0\x80\"", "error:invalid UTF-8"},      // surrogate
      {"\"\xf4\x90\x80\x80\"", "error:invalid UTF-8"},  // > U+10FFFF
      {"\"\xe2\x9c\"", "error:invalid UTF-8"},          // cut
      {R"("abc)", "error:unterminated string"},
      {R"("a\)", "error:unterminated string"},
      {"x", "error:malformed JSON (a comma, brace, colon or key)"},
      {"1", "error:expected a string"},
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
      {"18446744073709551616", "error:invalid number"},  // out of range
      {"99999999999999999999", "error:invalid number"},
      {"-1", "error:expected a non-negative integer"},
      {"01", "error:invalid number"},  // leading zero
      {"1.0", "error:expected an integer"},
      {"1e3", "error:expected an integer"},
      {"\"1\"", "error:expected an integer"},
      {"", "error:expected an object"},
      {"12 3", "error:malformed JSON (a comma, brace, colon or key)"},
  };
  for (const Case& c : unsigned_cases) {
    CAPTURE(c.text);
    CHECK(Uint(c.text) == c.want);
  }
  const Case signed_cases[] = {
      {"-9223372036854775808", "ok:-9223372036854775808"},
      {"9223372036854775807", "ok:9223372036854775807"},
      {"9223372036854775808", "error:integer out of range"},
      {"-9223372036854775809", "error:invalid number"},  // out of range
      {"-0", "ok:0"},
      {"-", "error:invalid number"},
      {"--1", "error:invalid number"},
  };
  for (const Case& c : signed_cases) {
    CAPTURE(c.text);
    CHECK(Int(c.text) == c.want);
  }
}

TEST_CASE("doubles when asked for") {
  JsonReader r("[1.5e3,-0.25,1E-2,7]");
  r.BeginArray();
  REQUIRE(r.NextElement());
  CHECK(r.ReadDouble() == 1500.0);
  REQUIRE(r.NextElement());
  CHECK(r.ReadDouble() == -0.25);
  REQUIRE(r.NextElement());
  CHECK(r.ReadDouble() == 0.01);
  REQUIRE(r.NextElement());
  CHECK(r.ReadDouble() == 7.0);
  CHECK_FALSE(r.NextElement());
  r.ExpectEnd();
  CHECK_THROWS_AS(JsonReader("[1e400]"), JsonError);  // out of range
}

TEST_CASE("structure: what a skip accepts and refuses") {
  const Case cases[] = {
      {R"({"a":[1,-2.5e+3,true,false,null,{"b":{}}],"c":[]})", "ok:"},
      {" \t\r\n[ 1 , 2 ] \n", "ok:"},
      {"[1,]", "error:malformed JSON (a comma, brace, colon or key)"},
      {"[,1]", "error:malformed JSON (a comma, brace, colon or key)"},
      {"[1 2]", "error:malformed JSON (a comma, brace, colon or key)"},
      {R"({"a":1,})", "error:malformed JSON (a comma, brace, colon or key)"},
      {R"({"a" 1})", "error:malformed JSON (a comma, brace, colon or key)"},
      {R"({"a":1)", "error:malformed JSON (a comma, brace, colon or key)"},
      {R"({"a":1])", "error:malformed JSON (a comma, brace, colon or key)"},
      {"[1}", "error:malformed JSON (a comma, brace, colon or key)"},
      {"{1:2}", "error:malformed JSON (a comma, brace, colon or key)"},
      {"tru", "error:invalid literal"},
      {"nul", "error:invalid literal"},
      {"1.", "error:invalid number"},
      {"1e", "error:invalid number"},
      {"+1", "error:malformed JSON (a comma, brace, colon or key)"},
      {"", "error:expected an object"},
      {"{} {}", "error:malformed JSON (a comma, brace, colon or key)"},
      {"// c\n1", "error:malformed JSON (a comma, brace, colon or key)"},
      {std::string(64, '[') + std::string(64, ']'), "ok:"},
      {std::string(65, '['), "error:malformed JSON (a comma, brace, colon or key)"},
      {std::string(65, '[') + std::string(65, ']'), "error:nesting deeper than 64 levels"},
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

TEST_CASE("a read of the wrong type, or values left unread, is an error") {
  auto begin_object = [](JsonReader& r) { return r.BeginObject(), std::string(); };
  auto read_bool = [](JsonReader& r) { return std::to_string(r.ReadBool()); };
  CHECK(Outcome("[1]", begin_object) == "error:expected an object");
  CHECK(String(R"({"a":1})") == "error:expected a string");
  CHECK(Uint("true") == "error:expected an integer");
  CHECK(Outcome("null", read_bool) == "error:expected true or false");
  CHECK(Outcome(R"({"a":1})", begin_object) == "error:unread values in the text");
}

TEST_CASE("a skip lands on the next member, whatever it skipped") {
  JsonReader r(R"({"a":[1,{"b":[2,3.5]},"x",null],"d":-2.5,"s":{},"c":7})");
  r.BeginObject();
  std::string_view key;
  REQUIRE(r.NextKey(key));
  r.SkipValue();
  REQUIRE(r.NextKey(key));
  CHECK(key == "d");
  CHECK(r.ReadDouble() == -2.5);
  REQUIRE(r.NextKey(key));
  r.SkipValue();
  REQUIRE(r.NextKey(key));
  CHECK(key == "c");
  CHECK(r.ReadUint64() == 7);
  CHECK_FALSE(r.NextKey(key));
  r.ExpectEnd();
}

TEST_CASE("Reset starts over on the same reader") {
  JsonReader r(R"({"a":"first"})");
  r.BeginObject();
  std::string_view key;
  REQUIRE(r.NextKey(key));
  CHECK(r.ReadString() == "first");
  r.Reset(R"(["second",2])");
  r.BeginArray();
  REQUIRE(r.NextElement());
  CHECK(r.ReadString() == "second");
  REQUIRE(r.NextElement());
  CHECK(r.ReadUint64() == 2);
  CHECK_FALSE(r.NextElement());
  r.ExpectEnd();
  CHECK_THROWS_AS(r.Reset("[1,"), JsonError);
  CHECK_THROWS_AS(r.BeginArray(), JsonError);  // nothing left to read
}

}  // TEST_SUITE
