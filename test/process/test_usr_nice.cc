// summary's %usr is PerfMonger's: user and nice time together (issue
// 49.4). The default text stays PerfMonger's; --all adds a block with
// the two parts, sar's %user and %nice, which add up to it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "test/process/fake_proc.hh"

namespace pm::test {
namespace {

// The number after `label` in `text`, or -1.
double After(const std::string& text, const std::string& label) {
  size_t at = text.find(label);
  return at == std::string::npos ? -1 : std::stod(text.substr(at + label.size()));
}

}  // namespace

TEST_CASE("summary: %usr holds %nice; --all shows %user and %nice apart") {
  std::vector<FakeCounters> counters;
  for (uint64_t k = 0; k < 3; ++k) {
    FakeCounters c = CountersAt(k);
    c.cpu_all[1] = 10 + 30 * k;  // nice: 30 ticks a sample, user 12
    counters.push_back(c);
  }
  FakeProc fake(counters[0]);
  TempDir dir;
  std::string out = dir / "nice.pgr";
  RecordFake(fake, out, counters);
  ExitResult plain = Run({"summary", "--no-pager", out});
  ExitResult all = Run({"summary", "--all", "--no-pager", out});
  REQUIRE(plain.code == 0);
  REQUIRE(all.code == 0);
  CHECK(plain.out.find("%nice") == std::string::npos);  // PerfMonger's text
  double usr = After(all.out, "       %usr: "), user = After(all.out, "\n         %user: "),
         nice = After(all.out, "\n         %nice: ");
  CHECK(usr == After(plain.out, "       %usr: "));
  CHECK(nice > user);  // mostly nice time, all of it in %usr
  CHECK(user > 0);
  CHECK(user + nice == doctest::Approx(usr).epsilon(0.001));
}

}  // namespace pm::test
