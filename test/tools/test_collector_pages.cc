// The man pages that list the collectors list every one the descriptor
// table has: its flag in perfmonger-record(1), -stat(1) and -live(1), its
// name (play's key, the C library's name) in perfmonger-play(1) and
// perfmonger-embed(3), its members in pgr(5). A collector added to the
// table and not to a page fails here.
#include <doctest/doctest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "proto/pgr_collector_spec.hh"

namespace pm::test {
namespace {

// The page's text with troff's font escapes dropped and \- as -.
std::string PageText(std::string_view name) {
  const char* dir = std::getenv("PM_MAN_DIR");
  REQUIRE(dir != nullptr);
  std::ifstream in(std::string(dir) + "/" + std::string(name));
  REQUIRE(in);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string text;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '\\' && i + 2 < raw.size() && raw[i + 1] == 'f') {
      i += 2;  // \fB, \fI, \fR, \fP
    } else if (raw[i] == '\\' && i + 1 < raw.size() && raw[i + 1] == '-') {
      text += '-';
      ++i;
    } else {
      text += raw[i];
    }
  }
  return text;
}

bool WordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

// `word` in `text`, not as part of a longer name.
bool Names(const std::string& text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    size_t end = at + word.size();
    if ((at == 0 || !WordChar(text[at - 1])) && (end == text.size() || !WordChar(text[end])))
      return true;
  }
  return false;
}

TEST_CASE("word search: a name inside a longer one does not count") {
  CHECK(Names("the load key", "load"));
  CHECK_FALSE(Names("--record-load", "load"));
  CHECK_FALSE(Names("cgroup_io", "cgroup"));
}

TEST_CASE("every collector's flag is in record(1), stat(1) and live(1)") {
  for (std::string_view page :
       {"perfmonger-record.1", "perfmonger-stat.1", "perfmonger-live.1"}) {
    std::string text = PageText(page);
    for (const CollectorSpec& c : Collectors()) {
      CAPTURE(page);
      CAPTURE(c.flag);
      CHECK(Names(text, "--" + std::string(c.flag)));
    }
  }
}

TEST_CASE("every collector's name is in play(1) and embed(3), its members in pgr(5)") {
  std::string play = PageText("perfmonger-play.1"), embed = PageText("perfmonger-embed.3"),
              pgr = PageText("pgr.5");
  for (const CollectorSpec& c : Collectors()) {
    CAPTURE(c.name);
    CHECK(Names(play, c.name));
    CHECK(Names(embed, c.name));
    for (const PgrMember& m : c.members) {
      CAPTURE(m.key);
      CHECK(Names(pgr, m.key));
    }
  }
}

}  // namespace
}  // namespace pm::test
