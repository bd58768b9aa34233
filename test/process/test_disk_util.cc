// One meaning per name of a disk's utilization (issue 49.2): play, CSV and
// --stats give `util`, the total's being the disks' mean; the table
// (play --table, live) shows the busiest disk's as `max%`. On a recording
// with an idle disk beside a busy one the two differ, and each name keeps
// its meaning: the table's max% is the busiest disk's util, play's total
// util the mean, and the table has no column called util.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "test/process/fake_proc.hh"
#include "test/process/json.hh"

namespace pm::test {
namespace {

// The fields of the disk group ("read writ max%") of each table row.
std::vector<std::vector<std::string>> DiskCells(const std::string& table) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : SplitLines(table)) {
    std::vector<std::string> groups;
    std::stringstream in(line);
    for (std::string g; std::getline(in, g, '|');) groups.push_back(g);
    if (groups.size() < 3 || line.starts_with("average")) continue;
    std::stringstream disk(groups[2]);
    std::vector<std::string>& cells = rows.emplace_back();
    for (std::string c; disk >> c;) cells.push_back(c);
  }
  return rows;
}

}  // namespace

TEST_CASE("disk util: the table's max% is the busiest disk's, play's total util the mean") {
  std::array<uint64_t, 11> idle = {40, 0, 320, 4, 0, 0, 0, 0, 0, 4, 4};
  FakeCounters start = CountersAt(0);
  start.more_disks.push_back({"loop0", idle});
  FakeProc fake(start);
  std::vector<FakeCounters> counters;
  for (uint64_t k = 0; k < 4; ++k) {
    FakeCounters c = CountersAt(k);
    c.more_disks.push_back({"loop0", idle});
    counters.push_back(c);
  }
  TempDir dir;
  std::string out = dir / "idle.pgr";
  RecordFake(fake, out, counters);
  ExitResult play = Run({"play", out});
  ExitResult table = Run({"play", "--table", out});
  REQUIRE(play.code == 0);
  REQUIRE(table.code == 0);
  std::vector<std::string> lines = SplitLines(play.out);
  std::vector<std::vector<std::string>> cells = DiskCells(table.out);
  REQUIRE(cells.size() == lines.size() + 1);  // the heading, then a row per pair
  CHECK(cells[0] == std::vector<std::string>{"read", "writ", "max%"});
  double busiest = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    CAPTURE(lines[i]);
    Json j(lines[i]);
    double busy = static_cast<double>(j.root()["disk"]["vda"]["util"]);
    double none = static_cast<double>(j.root()["disk"]["loop0"]["util"]);
    double total = static_cast<double>(j.root()["disk"]["total"]["util"]);
    CHECK(none == 0);
    busiest = std::max(busiest, busy);
    CHECK(total == doctest::Approx((busy + none) / 2).epsilon(0.001));
    REQUIRE(cells[i + 1].size() == 3);
    CHECK(cells[i + 1][2] == std::to_string(static_cast<int>(std::lround(busy))));
  }
  CHECK(busiest > 1);  // the mean and the busiest differ: the names tell them apart
}

}  // namespace pm::test
