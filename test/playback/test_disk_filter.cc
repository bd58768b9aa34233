// --disk-only's patterns (POSIX extended regular expressions, regcomp):
// the ones users write keep the disks they mean; mistakes and Perl escapes
// are one-line errors; patterns built to exhaust regcomp (deep nesting,
// huge counts) are refused at once instead of crashing or stalling it.
#include <doctest/doctest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "playback/reports/disk_filter.hh"
#include "playback/reports/extended_regex.hh"

namespace {

const std::vector<std::string> kDisks = {"sda",     "sda1",     "sdb",   "vda",  "vdb",
                                         "nvme0n1", "nvme0n1p2", "dm-0", "md127", "xvdaa"};

std::vector<std::string> Kept(const std::string& pattern) {
  pm::DiskFilter filter(pattern);
  std::vector<std::string> kept;
  for (const std::string& d : kDisks)
    if (filter.Keeps(d)) kept.push_back(d);
  return kept;
}

// The error for `pattern`: one line, and empty when it compiled.
std::string Refusal(const std::string& pattern) {
  try {
    pm::DiskFilter filter(pattern);
  } catch (const std::invalid_argument& e) {
    std::string why = e.what();
    CHECK(why.find('\n') == std::string::npos);
    CHECK_FALSE(why.empty());
    return why;
  }
  return {};
}

using V = std::vector<std::string>;

}  // namespace

TEST_CASE("disk filter: the patterns users write, searched anywhere in the name") {
  CHECK(Kept("da") == V{"sda", "sda1", "vda", "xvdaa"});
  CHECK(Kept("^sd") == V{"sda", "sda1", "sdb"});
  CHECK(Kept("^sdb$") == V{"sdb"});
  CHECK(Kept("b$") == V{"sdb", "vdb"});
  CHECK(Kept("^(sda|vdb)$") == V{"sda", "vdb"});
  CHECK(Kept("^[sv]d[a-z]$") == V{"sda", "sdb", "vda", "vdb"});
  CHECK(Kept("^nvme[0-9]+n[0-9]+$") == V{"nvme0n1"});
  CHECK(Kept("^nvme[0-9]+n[0-9]+(p[0-9]+)?$") == V{"nvme0n1", "nvme0n1p2"});
  CHECK(Kept("^dm-[[:digit:]]+$") == V{"dm-0"});
  CHECK(Kept("^md[0-9]{1,3}$") == V{"md127"});
  CHECK(Kept("^xvd[a-z]{2,}$") == V{"xvdaa"});
  CHECK(Kept("dm\\-0|md") == V{"dm-0", "md127"});
  CHECK(Kept("").size() == kDisks.size());  // as an empty grep -E pattern
  CHECK(Kept("nothing").empty());
}

TEST_CASE("disk filter: copies share the compiled pattern") {
  std::optional<pm::DiskFilter> copy;
  {
    pm::DiskFilter original("^vd");
    copy = original;
  }
  CHECK(copy->Keeps("vdb"));
  CHECK_FALSE(copy->Keeps("sdb"));
}

TEST_CASE("disk filter: a mistake is a one-line error saying why") {
  for (const char* bad : {"(", "(sda", "[sd", "*sda", "a{2,1}", "sda\\"}) {
    CAPTURE(bad);
    CHECK_FALSE(Refusal(bad).empty());
  }
  CHECK(Refusal("(").find("(") != std::string::npos);  // regcomp's reason: "Unmatched ( or \\("
  CHECK(Kept("sd)").empty());  // a lone ')' is a character, as in grep -E
  CHECK(Refusal("nvme\\d") == "'\\d' is Perl's, not POSIX's: write [0-9]");
  CHECK(Refusal("\\w+") == "'\\w' is Perl's, not POSIX's: write [[:alnum:]_]");
  CHECK(Refusal("(a)\\1").find("a backslash quotes only a symbol") != std::string::npos);
  CHECK(Refusal("sd\\.").empty());      // a quoted symbol
  CHECK(Refusal("[\\d]").empty());      // inside brackets a backslash is itself
  CHECK(Refusal(std::string("sd\0a", 4)) == "a NUL byte in it");
}

TEST_CASE("disk filter: patterns that would exhaust regcomp are refused at once") {
  // Nesting: glibc's regcomp recurses per level and overflows the stack
  // near 30,000 levels.
  std::string deep = std::string(100000, '(') + "a" + std::string(100000, ')');
  CHECK(Refusal(deep).find("longer than 1024 bytes") != std::string::npos);
  // The deepest nesting the length allows compiles, and works.
  std::string allowed = std::string(511, '(') + "a" + std::string(511, ')');
  REQUIRE(allowed.size() <= pm::ExtendedRegex::kMaxPatternBytes);
  CHECK(pm::DiskFilter(allowed).Keeps("sda"));
  // Counts: each is expanded in full, so a product of them takes seconds
  // and hundreds of MB; one huge count alone stalls it.
  CHECK(Refusal("(a{1,255}){1,255}").find("more than 4096 positions") != std::string::npos);
  CHECK(Refusal("((a{16}){16}){16}").find("more than 4096 positions") != std::string::npos);
  CHECK(Refusal("a{2}{3}{4}{5}{6}{7}{8}").find("more than 4096") != std::string::npos);
  CHECK(Refusal("a{1,32767}") == "a count above 255 in {}");
  CHECK(Refusal("a{,99999999999999999999}") == "a count above 255 in {}");
  CHECK(Refusal("a{256,}") == "a count above 255 in {}");
  CHECK(Refusal("(sd[a-z]{1,2}){1,16}").empty());  // within the bounds
}
