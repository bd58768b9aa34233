#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "proto/json.hh"

namespace {

std::string Escaped(std::string_view s) {
  std::string out;
  pm::AppendJsonString(out, s);
  return out;
}

}  // namespace

TEST_CASE("JSON strings are escaped as Go's encoding/json does") {
  struct Row { std::string_view in; std::string_view out; };
  const Row rows[] = {
      {"", R"("")"},
      {"plain text", R"("plain text")"},
      {"a\"b\\c", R"("a\"b\\c")"},
      {"line\nfeed\rtab\t", R"("line\nfeed\rtab\t")"},
      {"<html>&amp;", R"("\u003chtml\u003e\u0026amp;")"},
      {std::string_view("\x01\x1f\x7f", 3), "\"\\u0001\\u001f\x7f\""},
      {std::string_view("nul\0x", 5), R"("nul\u0000x")"},
      {"caf\xc3\xa9", "\"caf\xc3\xa9\""},
      {"\xe2\x80\xa8\xe2\x80\xa9", R"("\u2028\u2029")"},
      {"bad\xff", R"("bad\ufffd")"},
      {"cut\xe2\x82", R"("cut\ufffd\ufffd")"},
      {"overlong\xc0\xaf", R"("overlong\ufffd\ufffd")"},
      {"\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\""},
  };
  for (const Row& row : rows) {
    CAPTURE(row.in);
    CHECK(Escaped(row.in) == row.out);
  }
}

TEST_CASE("a string with nothing to escape is written as the escaping path would") {
  // Names without escapes skip the byte-by-byte path; a control byte in
  // front forces that path, so both must agree on every byte after it.
  for (int c = 0; c < 256; ++c) {
    std::string one(1, static_cast<char>(c));
    std::string word = "ab" + one + "cd";
    std::string slow = Escaped("\x01" + word);
    CAPTURE(c);
    CHECK("\"\\u0001" + Escaped(word).substr(1) == slow);
  }
}

TEST_CASE("integers print in full") {
  std::string out;
  pm::AppendInt(out, std::numeric_limits<int64_t>::min());
  out.push_back(' ');
  pm::AppendUint(out, std::numeric_limits<uint64_t>::max());
  out.push_back(' ');
  pm::AppendInt(out, 0);
  CHECK(out == "-9223372036854775808 18446744073709551615 0");
}

TEST_CASE("an object writer places braces, commas and escaped keys") {
  std::string out = "x";
  pm::JsonObjectWriter o(out);
  o.Str("s", "a\"b").Int("i", -1).Uint("u", 2).Bool("t", true).Bool("f", false);
  o.Raw("raw", "1.50");
  pm::JsonObjectWriter inner(o.Key("in<"));
  inner.Close();
  pm::JsonObjectWriter nested(o.Key("n"));
  nested.Str("k", "v").Int("j", 3).Close();
  o.Close();
  CHECK(out == R"(x{"s":"a\"b","i":-1,"u":2,"t":true,"f":false,"raw":1.50,)"
               R"("in\u003c":{},"n":{"k":"v","j":3}})");
  std::string empty;
  pm::JsonObjectWriter(empty).Close();
  CHECK(empty == "{}");
}
