// play --format csv: the header names play's JSON paths, each row holds
// the numbers of the JSON line in the same format; a device missing from a
// pair leaves empty cells, one absent from the first pair is reported.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "playback/outputs/csv_keys.hh"
#include "playback/outputs/export_csv.hh"
#include "playback/outputs/play_json.hh"
#include "playback/reports/rates.hh"
#include "test/playback/csv_paths.hh"
#include "test/playback/pgr_builder.hh"

namespace pm {
namespace {

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

// Samples k and k + 2 of `shape`, the origin at sample 0.
struct TwoSamples {
  RawSample prev, cur;
  int64_t origin;
  TwoSamples(const test::Shape& shape, uint64_t k)
      : prev(test::MakeSample(shape, k)),
        cur(test::MakeSample(shape, k + 2)),
        origin(test::MakeSample(shape, 0).time_ns) {}
  void Csv(CsvExport& csv, std::string& text) const {
    const ReportOptions options;
    csv.AppendRow(text, Pair(prev, cur, {origin}, options));
  }
  std::string Play() const {
    const ReportOptions options;
    std::string out;
    AppendPlayJson(out, Pair(prev, cur, {origin}, options));
    return out;
  }
};

TEST_SUITE("export") {

TEST_CASE("csv: one header, then play's numbers under their JSON paths") {
  test::Shape shape;
  CsvExport csv;
  std::string text;
  TwoSamples a(shape, 0), b(shape, 2);
  a.Csv(csv, text);
  b.Csv(csv, text);
  std::vector<std::string> lines = Lines(text);
  REQUIRE(lines.size() == 3);
  std::vector<std::string> head = test::SplitCsv(lines[0]);
  CHECK(head[0] == "time");
  CHECK(head[1] == "elapsed_time");
  CHECK(head[2] == "cpu.all.usr");
  for (const char* column : {"cpu.cores.1.sys", "intr.core_sys_intr.1", "disk.sda.rlatency",
                             "disk.total.wkbyteps", "net.eth0.txpktps", "mem.mem_used",
                             "mem.huge_pages_surp"})
    CHECK(std::find(head.begin(), head.end(), column) != head.end());
  test::CheckRowIsPlay(head, test::SplitCsv(lines[1]), a.Play());
  test::CheckRowIsPlay(head, test::SplitCsv(lines[2]), b.Play());
  CHECK_FALSE(csv.left_out());
}

TEST_CASE("csv: a missing device leaves empty cells; a late one is reported") {
  test::Shape shape;
  shape.disks = {"a,b", "sdb"};
  CsvExport csv;
  std::string text;
  TwoSamples first(shape, 0);
  first.Csv(csv, text);
  test::Shape without = shape;
  without.disks = {"sdb"};  // "a,b" gone
  TwoSamples(without, 0).Csv(csv, text);
  CHECK_FALSE(csv.left_out());
  test::Shape more = shape;
  more.disks.push_back("sdc");
  TwoSamples(more, 0).Csv(csv, text);
  CHECK(csv.left_out());
  std::vector<std::string> lines = Lines(text);
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].find(",\"disk.a,b.riops\",") != std::string::npos);
  CHECK(lines[2].find(",,,,,,,,,") != std::string::npos);  // nine empty disk cells
  CHECK(lines[1].find(",,") == std::string::npos);
  CHECK(test::SplitCsv(lines[3]).size() == test::SplitCsv(lines[0]).size());
}

TEST_CASE("csv --columns: host, run and phase lead every row, the phase following marks") {
  test::Shape shape;
  RecordingInfo info;
  info.host = "db-1";
  info.meta = {{"query_id", "q,42"}, {"run", "7"}};
  CsvKeys keys({CsvKey::kPhase, CsvKey::kHost, CsvKey::kRun}, info, "query_id");
  CsvExport csv(&keys);
  std::string text;
  TwoSamples(shape, 0).Csv(csv, text);
  RecordingEvent mark;
  mark.kind = "mark";
  mark.label = "load \"x\"";
  keys.OnEvent(mark);
  RecordingEvent pause;
  pause.kind = "pause";
  keys.OnEvent(pause);  // only marks move the phase
  TwoSamples(shape, 2).Csv(csv, text);
  std::vector<std::string> lines = Lines(text);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].starts_with("phase,host,run,time,elapsed_time,cpu.all.usr,"));
  CHECK(lines[1].starts_with("start,db-1,\"q,42\","));
  CHECK(lines[2].starts_with("\"load \"\"x\"\"\",db-1,\"q,42\","));
  // The rest of each row is the row without keys.
  CsvExport plain;
  std::string bare;
  TwoSamples(shape, 0).Csv(plain, bare);
  TwoSamples(shape, 2).Csv(plain, bare);
  std::vector<std::string> want = Lines(bare);
  CHECK(lines[0].ends_with(want[0]));
  CHECK(lines[2].ends_with(want[2]));
}

TEST_CASE("csv --columns: a run key the recording lacks is an empty cell; names are known") {
  RecordingInfo info;
  info.host = "h";
  CsvKeys keys({CsvKey::kRun, CsvKey::kHost}, info, "run");
  std::string names, cells;
  keys.AppendNames(names);
  keys.AppendCells(cells);
  CHECK(names == "run,host,");
  CHECK(cells == ",h,");
  CHECK(keys.lacks_run());
  CHECK_FALSE(CsvKeys({CsvKey::kHost}, info, "run").lacks_run());  // not asked for
  info.meta = {{"run", "1"}};
  CHECK_FALSE(CsvKeys({CsvKey::kRun}, info, "run").lacks_run());
  CHECK(CsvKeyNamed("host") == CsvKey::kHost);
  CHECK(CsvKeyNamed("run") == CsvKey::kRun);
  CHECK(CsvKeyNamed("phase") == CsvKey::kPhase);
  CHECK_FALSE(CsvKeyNamed("Host"));
  CHECK_FALSE(CsvKeyNamed(""));
}

}  // TEST_SUITE

}  // namespace
}  // namespace pm
