// play --format csv: the header names play's JSON paths, each row holds
// the numbers of the JSON line in the same format; a device missing from a
// pair leaves empty cells, one absent from the first pair is reported.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "playback/export_csv.hh"
#include "test/playback/pgr_builder.hh"

namespace pm {
namespace {

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == ',') out.emplace_back();
    else out.back().push_back(c);
  }
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t at = 0, end;
  while ((end = text.find("\r\n", at)) != std::string::npos) {
    out.push_back(text.substr(at, end - at));
    at = end + 2;
  }
  CHECK(at == text.size());  // every line ends CRLF
  return out;
}

PairRates Pair(const test::Shape& shape, uint64_t k) {
  return ComputeRates(test::MakeSample(shape, k), test::MakeSample(shape, k + 2),
                      test::MakeSample(shape, 0).time_ns);
}

TEST_SUITE("export") {

TEST_CASE("csv: one header, then play's numbers under their JSON paths") {
  test::Shape shape;
  shape.intr.clear();
  CsvExport csv;
  std::string text;
  PairRates a = Pair(shape, 0), b = Pair(shape, 2);
  csv.AppendRow(text, a);
  csv.AppendRow(text, b);
  std::vector<std::string> lines = Lines(text);
  REQUIRE(lines.size() == 3);
  std::vector<std::string> head = Split(lines[0]), row = Split(lines[2]);
  REQUIRE(head.size() == row.size());
  auto cell = [&](const std::string& column) {
    for (size_t i = 0; i < head.size(); ++i)
      if (head[i] == column) return row[i];
    FAIL("no column " << column);
    return std::string();
  };
  CHECK(head[0] == "time");
  CHECK(head[1] == "elapsed_time");
  CHECK(head[2] == "cpu.all.usr");
  auto fixed = [](double v, int p) { std::string s; AppendFixed(s, v, p); return s; };
  CHECK(cell("time") == fixed(b.time, 3));
  CHECK(cell("cpu.cores.1.sys") == fixed(b.cpu.cores[1].sys, 2));
  CHECK(cell("disk.sda.rlatency") == fixed(b.disks[1].second.rlatency, 3));  // sorted: nvme0n1, sda
  CHECK(cell("disk.total.wkbyteps") == fixed(b.disk_total.wkbyteps, 2));
  CHECK(cell("net.eth0.txpktps") == fixed(b.nets[0].second.txpktps, 2));
  CHECK(cell("mem.mem_used") == std::to_string(MemUsed(b.mem)));
  CHECK(cell("mem.huge_pages_surp") == std::to_string(b.mem[28]));
  CHECK_FALSE(csv.left_out());
}

TEST_CASE("csv: a missing device leaves empty cells; a late one is reported") {
  test::Shape shape;
  shape.disks = {"a,b", "sdb"};
  CsvExport csv;
  std::string text;
  PairRates first = Pair(shape, 0);
  csv.AppendRow(text, first);
  PairRates second = first;
  second.disks.erase(second.disks.begin());  // "a,b" gone
  csv.AppendRow(text, second);
  CHECK_FALSE(csv.left_out());
  PairRates third = first;
  third.disks.emplace_back("sdc", DiskRates{});
  csv.AppendRow(text, third);
  CHECK(csv.left_out());
  std::vector<std::string> lines = Lines(text);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].find(",\"disk.a,b.riops\",") != std::string::npos);
  CHECK(lines[2].find(",,,,,,,,,") != std::string::npos);  // nine empty disk cells
  CHECK(lines[1].find(",,") == std::string::npos);
}

}  // TEST_SUITE

}  // namespace
}  // namespace pm
