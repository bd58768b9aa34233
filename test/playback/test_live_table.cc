// live's table (perfmonger live, play --table): each report's columns as a
// group, values scaled into fixed widths, the rows cut to the terminal's
// width the same way as the header, and the average row weighted by time.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "common/error.hh"
#include "playback/outputs/live_table.hh"
#include "playback/reports/table_cells.hh"
#include "playback/outputs/table_text.hh"
#include "test/playback/rates_test_util.hh"

namespace pm::test {
namespace {

std::string Cell(double v, LiveUnit unit, int width) {
  std::string out;
  AppendCell(out, v, unit, width);
  return out;
}

// Two cores over 1 s: core 0 all user, core 1 idle; vda 25 % busy writing
// 1 MiB, sdb 75 % busy; eth0 received 2 MiB.
struct Second {
  RawSample a = At(0), b = At(kSec);
  explicit Second(uint64_t offset = 0) {
    a = At(static_cast<int64_t>(offset) * kSec);
    b = At(static_cast<int64_t>(offset + 1) * kSec);
    SetCpu(a, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {{0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                               {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}});
    SetCpu(b, {100, 0, 0, 100, 0, 0, 0, 0, 0, 0}, {{100, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                                   {0, 0, 0, 100, 0, 0, 0, 0, 0, 0}});
    AddDisk(a, "vda", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    AddDisk(b, "vda", {0, 0, 0, 0, 8, 0, 2048, 10, 0, 250, 10});
    AddDisk(a, "sdb", {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    AddDisk(b, "sdb", {0, 0, 0, 0, 0, 0, 0, 0, 0, 750, 0});
    AddNet(a, "eth0", Net(0, 0, 0, 0));
    AddNet(b, "eth0", Net(2 << 20, 10, 0, 0));
  }
  Pair pair() const { return Pair(a, b, {}, options); }
  ReportOptions options;
};

TEST_CASE("cells keep their width: scaled by their unit, - for none") {
  CHECK(Cell(0, LiveUnit::kBytes, 5) == "    0");
  CHECK(Cell(1000, LiveUnit::kBytes, 5) == " 1000");
  CHECK(Cell(20481, LiveUnit::kBytes, 5) == "  20K");
  CHECK(Cell(1.5 * 1024 * 1024, LiveUnit::kBytes, 5) == " 1.5M");
  CHECK(Cell(21.0 * 1024 * 1024 * 1024, LiveUnit::kBytes, 5) == "  21G");
  CHECK(Cell(2500, LiveUnit::kCount, 4) == "2.5k");
  CHECK(Cell(100, LiveUnit::kPercent, 3) == "100");
  CHECK(Cell(1600, LiveUnit::kPercent, 4) == "1600");
  CHECK(Cell(12.345, LiveUnit::kFixed, 4) == "12.3");
  CHECK(Cell(0.52, LiveUnit::kFixed, 4) == "0.52");
  CHECK(Cell(std::nan(""), LiveUnit::kPercent, 3) == "  -");
  CHECK(Cell(-3, LiveUnit::kCount, 4) == "   0");
  for (double v : {0.0, 0.4, 9.96, 999.6, 1023.7, 99999.9, 1e7, 1e12, 1e18, 1e30})
    for (LiveUnit unit : {LiveUnit::kPercent, LiveUnit::kBytes, LiveUnit::kCount, LiveUnit::kFixed})
      for (int width : {3, 4, 5}) {
        CAPTURE(v);
        CAPTURE(width);
        CHECK(Cell(v, unit, width).size() == static_cast<size_t>(width));
      }
}

TEST_CASE("without --columns: every recorded collector's group, in the reports' order") {
  const Second s;
  LiveTable table("");
  std::span<const double> v = table.Add(s.pair());
  REQUIRE(table.groups().size() == 3);  // cpu, disk, net: what the samples carry
  CHECK(table.groups()[0].heading == "cpu");
  CHECK(table.groups()[1].heading == "disk");
  CHECK(table.groups()[2].heading == "net");
  REQUIRE(v.size() == 5 + 3 + 2);
  CHECK(v[0] == doctest::Approx(50));   // usr: one core of two
  CHECK(v[4] == doctest::Approx(50));   // idl
  CHECK(v[6] == doctest::Approx(1 << 20));  // written bytes/s
  CHECK(v[7] == doctest::Approx(75));   // the busiest disk's %util, not the mean
  CHECK(v[8] == doctest::Approx(2 << 20));
}

TEST_CASE("--columns: a core, a device, an interface; a missing part shows none") {
  const Second s;
  LiveTable table("cpu:1,disk:vda,net:eth0,net:eth9,cpu:7");
  std::span<const double> v = table.Add(s.pair());
  REQUIRE(table.groups().size() == 5);
  CHECK(table.groups()[1].heading == "disk:vda");
  CHECK(v[0] == doctest::Approx(0));    // core 1: idle
  CHECK(v[4] == doctest::Approx(100));
  CHECK(v[7] == doctest::Approx(25));   // vda's own %util
  CHECK(std::isnan(v[10]));             // no eth9
  CHECK(std::isnan(v[12]));             // no core 7
  CHECK_NOTHROW(LiveTable("cpu,intr"));  // dstat's int and csw
  CHECK_THROWS_AS(LiveTable("cpu,bogus"), UsageError);
  CHECK_THROWS_AS(LiveTable("cpu,"), UsageError);
}

TEST_CASE("the average row weighs each value by its interval") {
  const Second one, two(1);
  RawSample c = At(4 * kSec);  // a 3 s interval after two's, all idle
  SetCpu(c, {100, 0, 0, 400, 0, 0, 0, 0, 0, 0}, {{100, 0, 0, 150, 0, 0, 0, 0, 0, 0},
                                                 {0, 0, 0, 250, 0, 0, 0, 0, 0, 0}});
  LiveTable table("cpu");
  CHECK(table.Average().empty());
  table.Add(one.pair());
  table.Add(Pair(one.b, c, {}, one.options));
  std::vector<double> avg = table.Average();
  CHECK(avg[0] == doctest::Approx(50.0 * 1 / 4));  // 1 s at 50 %, 3 s at 0
  CHECK(table.pairs() == 2);
}

TEST_CASE("rows and header fit the width, cut at the same column; 0 is no limit") {
  const Second s;
  LiveTable table("cpu,cpu:0,cpu:1,disk,net");
  std::span<const double> v = table.Add(s.pair());
  for (size_t width : {size_t{30}, size_t{80}, size_t{0}}) {
    CAPTURE(width);
    std::string header, row;
    AppendTableHeader(header, table.groups(), {width, false});
    AppendTableRow(row, TimeLabel(1e9), table.groups(), v, {width, false});
    size_t nl = header.find('\n');
    std::string groups = header.substr(0, nl), labels = header.substr(nl + 1);
    labels.pop_back();
    row.pop_back();
    CHECK(groups.size() == labels.size());
    CHECK(labels.size() == row.size());
    if (width) CHECK(row.size() <= width);
    else CHECK(row.size() == 8 + 3 * 20 + 17 + 12);
  }
  std::string colored;
  AppendTableRow(colored, "average", table.groups(), v, {0, true});
  CHECK(colored.find("\033[") != std::string::npos);
}

}  // namespace
}  // namespace pm::test
