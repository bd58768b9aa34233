// seeds/embedding.md §4: split on the first raw '=', percent-decode both
// halves (url.PathUnescape), reject what cannot be decoded.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "common/error.hh"
#include "proto/meta.hh"

TEST_CASE("--meta splits on the first raw '=' and decodes both halves") {
  struct Row { std::string_view arg, key, value; };
  const Row rows[] = {
      // The seed's two examples.
      {"query_id=q42", "query_id", "q42"},
      {"sql=SELECT%20*%20FROM%20t%20WHERE%20id%3D42", "sql",
       "SELECT * FROM t WHERE id=42"},
      {"a%3Db=c", "a=b", "c"},           // an encoded '=' does not split
      {"k=v=w", "k", "v=w"},             // only the first raw '=' splits
      {"k=", "k", ""},                   // an empty value is fine
      {"k==", "k", "="},
      {"k=%3d%3D", "k", "=="},           // hex digits of either case
      {"k=%e3%81%82", "k", "\xe3\x81\x82"},
      {"k=%C3%A9", "k", "\xc3\xa9"},
      {"k=a+b", "k", "a+b"},             // '+' is not a space
      {"k=%2B", "k", "+"},
      {"k=%25zz", "k", "%zz"},           // a literal '%' is %25
      {"k=%00", "k", std::string_view("\0", 1)},
      {"k=a b\tc", "k", "a b\tc"},       // raw bytes pass through
      {"%6B%65%79=v", "key", "v"},
      {"caf\xc3\xa9=%F0%9F%98%80", "caf\xc3\xa9", "\xf0\x9f\x98\x80"},  // UTF-8 both ways
  };
  for (const Row& row : rows) {
    CAPTURE(row.arg);
    auto [key, value] = pm::ParseMetaArg(row.arg);
    CHECK(key == row.key);
    CHECK(value == row.value);
  }
}

TEST_CASE("malformed --meta arguments are usage errors naming the fix") {
  struct Row { std::string_view arg, message; };
  const Row rows[] = {
      {"foo", "--meta 'foo': no '=' (write --meta key=value; percent-encode "
              "'=' in keys as %3D)"},
      {"", "--meta '': no '='"},
      {"a%3Db", "--meta 'a%3Db': no '='"},
      {"=v", "--meta '=v': empty key"},
      {"=", "--meta '=': empty key"},
      {"a=%zz", "--meta 'a=%zz': invalid percent-escape '%zz' in the value "
                "(encode a literal '%' as %25)"},
      {"a=%", "invalid percent-escape '%' in the value"},
      {"a=x%", "invalid percent-escape '%' in the value"},
      {"a=%2", "invalid percent-escape '%2' in the value"},
      {"a=%g0", "invalid percent-escape '%g0' in the value"},
      {"a=%0g", "invalid percent-escape '%0g' in the value"},
      {"a=100%", "invalid percent-escape '%' in the value"},
      {"%=v", "invalid percent-escape '%' in the key"},
      {"%2=v", "invalid percent-escape '%2' in the key"},
      {"%zz=v", "invalid percent-escape '%zz' in the key"},
      {"%g0=v", "invalid percent-escape '%g0' in the key"},
      {"k\n", "--meta 'k\\n': no '='"},  // the message stays one line
      // Metadata is text: bytes that are not UTF-8, raw or percent-encoded,
      // are refused (not replaced by U+FFFD), quoted as escapes.
      {"k=\xff\xfe", "--meta 'k=\\xff\\xfe': the value of key 'k' is not UTF-8 (byte "
                     "\\xff at offset 0); metadata is text: encode binary data first, "
                     "e.g. as base64"},
      {"k=%FF", "the value of key 'k' is not UTF-8 (byte \\xff at offset 0)"},
      {"k=caf\xc3", "the value of key 'k' is not UTF-8 (byte \\xc3 at offset 3)"},
      {"k=%C0%80", "(byte \\xc0 at offset 0)"},      // overlong NUL
      {"k=a%ED%A0%80", "(byte \\xed at offset 1)"},  // a surrogate
      {"\xe9t\xe9=x", "--meta '\\xe9t\\xe9=x': the key is not UTF-8 (byte \\xe9 at offset 0)"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.arg);
    std::string what;
    try {
      pm::ParseMetaArg(row.arg);
    } catch (const pm::UsageError& e) {
      what = e.what();
    }
    CHECK(what.find(row.message) != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
    CHECK(what.find('\xff') == std::string::npos);  // the message itself is text
  }
}

TEST_CASE("a --meta value's percent-escapes follow url.PathUnescape") {
  auto value = [](std::string_view v) { return pm::ParseMetaArg("k=" + std::string(v)).second; };
  CHECK(value("") == "");
  CHECK(value("a%20b+c") == "a b+c");
  CHECK(value("%41%62") == "Ab");
  CHECK(value("%7e%7E") == "~~");
  for (std::string_view bad : {"%", "%2", "%zz", "%g0", "a%2"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(value(bad), pm::UsageError);
  }
}

TEST_CASE("a list of --meta keeps order and rejects a duplicate key") {
  pm::MetaList meta = pm::ParseMetaArgs({"b=2", "a=1", "c%3Dd=x"});
  CHECK(meta == pm::MetaList{{"b", "2"}, {"a", "1"}, {"c=d", "x"}});
  CHECK(pm::ParseMetaArgs({}).empty());
  CHECK_THROWS_WITH_AS(pm::ParseMetaArgs({"k=1", "j=2", "k=3"}),
                       "--meta 'k=3': duplicate key 'k' (give each key once)",
                       pm::UsageError);
  // Keys are compared after decoding.
  CHECK_THROWS_WITH_AS(pm::ParseMetaArgs({"a b=1", "a%20b=2"}),
                       doctest::Contains("duplicate key 'a b'"),
                       pm::UsageError);
  CHECK_THROWS_AS(pm::ParseMetaArgs({"ok=1", "bad"}), pm::UsageError);
}
