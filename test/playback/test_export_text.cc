// The pieces of the exports: OpenMetrics label and number text, CSV
// quoting, and the column spool that keeps the OpenMetrics export's memory
// flat.
#include <doctest/doctest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "playback/outputs/column_spool.hh"
#include "playback/outputs/export_csv.hh"
#include "playback/outputs/export_openmetrics.hh"
#include "playback/outputs/openmetrics_text.hh"

namespace pm {
namespace {

std::string Scaled(uint64_t v, Scale s) {
  std::string out;
  AppendScaled(out, v, s);
  return out;
}

std::string Value(std::string_view v) {
  std::string out;
  AppendLabelValue(out, v);
  return out;
}

std::string Csv(std::string_view v) {
  std::string out;
  AppendCsvField(out, v);
  return out;
}

TEST_SUITE("export") {

TEST_CASE("counters in node_exporter's units, exactly") {
  CHECK(Scaled(12345, Scale::kPerHundred) == "123.45");
  CHECK(Scaled(7, Scale::kPerHundred) == "0.07");
  CHECK(Scaled(1005, Scale::kPerThousand) == "1.005");
  CHECK(Scaled(470870134, Scale::kPerMillion) == "470.870134");  // PSI's and cgroups' µs
  CHECK(Scaled(42, Scale::kPerMillion) == "0.000042");
  CHECK(Scaled(3, Scale::kTimes512) == "1536");
  CHECK(Scaled(2, Scale::kTimes1024) == "2048");
  CHECK(Scaled(UINT64_MAX - 1, Scale::kOne) == "18446744073709551614");
  // Past 2^64 bytes: a float, not a wrapped integer.
  CHECK(std::stod(Scaled(UINT64_MAX / 100, Scale::kTimes1024)) ==
        doctest::Approx(static_cast<double>(UINT64_MAX / 100) * 1024));
}

TEST_CASE("timestamps: seconds with three decimals; nanoseconds to the nearest ms") {
  std::string out;
  AppendTimestampMs(out, 1796076770507);
  CHECK(out == "1796076770.507");
  out.clear();
  AppendTimestampMs(out, -1500);
  CHECK(out == "-1.500");
  CHECK(NearestMs(1'499'999) == 1);
  CHECK(NearestMs(1'500'000) == 2);
  CHECK(NearestMs(-1'400'000) == -1);
}

TEST_CASE("label values escaped as OpenMetrics says; not UTF-8 becomes U+FFFD") {
  CHECK(Value("a\\b\"c\nd") == "a\\\\b\\\"c\\nd");
  CHECK(Value("caf\xc3\xa9") == "caf\xc3\xa9");
  CHECK(Value("x\xff") == "x\xef\xbf\xbd");
  CHECK(Value("tab\there") == "tab\there");
}

TEST_CASE("meta keys become valid, distinct label names") {
  CHECK(SanitizedLabelName("query_id") == "query_id");
  CHECK(SanitizedLabelName("query-id.x") == "query_id_x");
  CHECK(SanitizedLabelName("9lives") == "_9lives");
  CHECK(SanitizedLabelName("__name__") == "meta__name__");
  CHECK(SanitizedLabelName("") == "_");
  MetaList meta = {{"device", "d"}, {"a-b", "1"}, {"a_b", "2"}, {"instance", "x"}};
  OpenMetricsOptions db1;
  db1.instance = "db-1";
  CHECK(CommonLabels(db1, meta) ==
        "instance=\"db-1\",meta_device=\"d\",a_b=\"1\",a_b_=\"2\",meta_instance=\"x\"");
  CHECK(CommonLabels({}, {}) == "");
}

TEST_CASE("--job and --label: on every series after instance; a meta key they name is renamed") {
  OpenMetricsOptions o;
  o.instance = "db-2";
  o.job = "bench";
  o.labels = {{"run", "7"}, {"rack", "r\"1"}};
  MetaList meta = {{"run", "3"}, {"job", "nightly"}, {"meta_run", "x"}, {"host", "h"}};
  CHECK(CommonLabels(o, meta) ==
        R"(instance="db-2",job="bench",run="7",rack="r\"1",meta_run="3",meta_job="nightly",)"
        R"(meta_run_="x",host="h")");
  MetaList job = {{"job", "nightly"}};  // without --job, a meta key `job` is the job
  CHECK(CommonLabels({}, job) == R"(job="nightly")");
}

TEST_CASE("a label name given is refused when it is none, reserved, or the export's own") {
  CHECK(LabelNameProblem("run") == "");
  CHECK(LabelNameProblem("_x9") == "");
  for (const char* bad : {"", "9x", "a-b", "a b", "caf\xc3\xa9"})
    CHECK(LabelNameProblem(bad).starts_with("not a label name"));
  CHECK(LabelNameProblem("__name__").find("reserved") != std::string::npos);
  CHECK(LabelNameProblem("instance") == "give it with --instance");
  CHECK(LabelNameProblem("job") == "give it with --job");
  for (const char* own : {"cpu", "mode", "device", "irq", "phase", "state", "pid", "comm",
                          "cgroup", "scope"})  // every report's, the phases
    CHECK(LabelNameProblem(own) == "a label of the export's own series: choose another name");
}

TEST_CASE("CSV fields quoted as RFC 4180 asks, only when needed") {
  CHECK(Csv("sda") == "sda");
  CHECK(Csv("a,b") == "\"a,b\"");
  CHECK(Csv("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(Csv("two\nlines") == "\"two\nlines\"");
  CHECK(Csv("cr\r") == "\"cr\r\"");
  // A formula's first character: a leading ' so that no spreadsheet runs it.
  CHECK(Csv("=HYPERLINK(\"http://x\")") == "\"'=HYPERLINK(\"\"http://x\"\")\"");
  CHECK(Csv("=1+2") == "'=1+2");
  CHECK(Csv("+1") == "'+1");
  CHECK(Csv("-2+3") == "'-2+3");
  CHECK(Csv("@SUM(A1)") == "'@SUM(A1)");
  CHECK(Csv("\t=1") == "'\t=1");
  CHECK(Csv("\r=1") == "\"'\r=1\"");
  CHECK(Csv("=a,b") == "\"'=a,b\"");
  CHECK(Csv("a=b") == "a=b");  // only the first character counts
  CHECK(Csv("q1-warm") == "q1-warm");
  CHECK(Csv("") == "");
}

TEST_CASE("the column spool gives back every column across blocks and widths") {
  ColumnSpool spool("/tmp", 64);  // a few rows per block: many blocks
  std::vector<std::vector<uint64_t>> rows;
  for (uint64_t r = 0; r < 300; ++r) {
    size_t width = 2 + r / 100;  // wider every 100 rows: a device seen late
    std::vector<uint64_t> row(width);
    for (size_t c = 0; c < width; ++c) row[c] = r * 10 + c;
    if (r % 7 == 0) row[1] = ColumnSpool::kAbsent;
    spool.Append(row);
    rows.push_back(row);
  }
  spool.Finish();
  CHECK(spool.rows() == 300);
  for (size_t c = 0; c < 5; ++c) {
    ColumnSpool::Cursor cursor(spool, c);
    uint64_t v, r = 0;
    bool same = true;
    while (cursor.Next(v)) {
      uint64_t want = c < rows[r].size() ? rows[r][c] : ColumnSpool::kAbsent;
      same = same && v == want;
      ++r;
    }
    CHECK(r == 300);
    CHECK_MESSAGE(same, "column ", c);
  }
}

TEST_CASE("the kernel copies a full spool's columns into a file, block after block") {
  ColumnSpool spool("/tmp", 64);  // 4 rows of 2 per block: many blocks
  for (uint64_t r = 0; r < 30; ++r) spool.Append(std::vector<uint64_t>{r, 1000 + r});
  spool.Finish();
  REQUIRE(spool.full());
  UniqueFd file = OpenSpoolFile("/tmp");
  REQUIRE(spool.CopyColumn(1, file.Get()));
  REQUIRE(spool.CopyColumn(0, file.Get()));
  std::vector<uint64_t> got(60);
  REQUIRE(pread(file.Get(), got.data(), 60 * 8, 0) == 60 * 8);
  for (uint64_t r = 0; r < 30; ++r) {
    CHECK(got[r] == 1000 + r);
    CHECK(got[30 + r] == r);
  }
  int pipe_fds[2];
  REQUIRE(pipe(pipe_fds) == 0);
  UniqueFd read_end = UniqueFd::Adopt(pipe_fds[0]), write_end = UniqueFd::Adopt(pipe_fds[1]);
  CHECK_FALSE(spool.CopyColumn(0, write_end.Get()));  // not to a pipe: the caller writes
  ColumnSpool narrow("/tmp", 64);
  narrow.Append(std::vector<uint64_t>{1, 2});
  narrow.Append(std::vector<uint64_t>{3});
  CHECK_FALSE(narrow.full());  // a row filled in with kAbsent
}

TEST_CASE("a spool directory that cannot be written is a clear error") {
  CHECK_THROWS_WITH_AS(ColumnSpool("/nonexistent-dir"),
                       doctest::Contains("set TMPDIR"), std::system_error);
}

}  // TEST_SUITE

}  // namespace
}  // namespace pm
