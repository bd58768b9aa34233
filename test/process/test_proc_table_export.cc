// play --format openmetrics of a real --record-procs recording: the
// exposition is sound (each family and series in one piece, timestamps
// increasing), and the busiest process's perfmonger_proctable_cpu_seconds
// counter, user plus system at its last point, is what `summary --top`
// counted for it: its usr(s)+sys(s) at their printed resolution, its CPU
// (schedstat) within 1 % (and a tick). And play --format csv --proctable:
// a row per process and procs line, each with play's proctable values.
// And play --table: under each row with a table its interval's busiest
// processes, their %CPU play's, at most --top N of them. A loaded machine
// may write the table every Nth sample only (pgr(5), "every"): play's
// lines without one are skipped, and a process's %CPU over the lines
// with one, each over its own interval, adds up to the CPU time the
// kernel counted for it while recorded.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <pwd.h>
#include <unistd.h>

#include "test/playback/openmetrics_check.hh"
#include "test/process/proc_blocks.hh"
#include "test/process/load_helper.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

double LastValue(Exposition& e, const std::string& series) {
  const std::vector<Point>& points = e.series[series];
  REQUIRE(!points.empty());
  return std::stod(points.back().value);
}

// A --record-procs recording at 0.2 s while `busy` burns `rounds` × 0.5 s of CPU.
void RecordBusy(const std::string& path, LoadHelper& busy, int rounds) {
  CommandSession s({"record", "-i", "0.2", "-l", path, "--record-procs"});
  s.ReadReadyLine();
  for (int round = 0; round < rounds; ++round) REQUIRE(busy.Do('c') == 'c');
  REQUIRE(bool(s.Command("stop").root()["ok"]));
  REQUIRE(s.Wait().code == 0);
}

// One CSV record (CRLF ended, RFC 4180 quoting), its fields.
std::vector<std::string> CsvFields(const std::string& line) {
  REQUIRE(line.ends_with("\r"));
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i + 1 < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && line[i + 1] == '"') fields.back().push_back(line[++i]);
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) fields.emplace_back();
    else fields.back().push_back(c);
  }
  return fields;
}

// A play line's "proctable", empty on a line without one: a scan slower
// than a tenth of the interval (a loaded machine) makes the recorder write
// the table every Nth sample only (pgr(5), "every").
const std::vector<JsonValue>& TableOf(const Json& line) {
  static const std::vector<JsonValue> none;
  const JsonValue& table = line.root()["proctable"];
  return table.exists() ? table.array() : none;
}

// The recording's procs lines' own intervals [since, mono], in seconds,
// in order: play's lines with a table, one each.
std::vector<double> TableIntervals(const std::string& path) {
  std::vector<double> seconds;
  for (const std::string& line : ReadRecording(path).lines) {
    if (line.find("\"event\":\"procs\"") == std::string::npos) continue;
    const Json procs(line);
    seconds.push_back(double(procs.Int("mono") - procs.Int("since")) / 1e9);
  }
  return seconds;
}

// play's proctable rows as the CSV would write them.
std::vector<std::vector<std::string>> PlayRows(const std::string& path) {
  ExitResult r = Run({"play", path});
  REQUIRE(r.code == 0);
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(r.out);
  auto fixed = [](const JsonValue& v, int digits) {
    if (v.is_null()) return std::string();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, double(v));
    return std::string(buf);
  };
  for (std::string line; std::getline(in, line);) {
    Json json(line);
    for (const JsonValue& p : TableOf(json))
      rows.push_back({fixed(json.root()["time"], 3), fixed(json.root()["elapsed_time"], 3),
                      std::to_string(int64_t(p["pid"])), std::string(std::string_view(p["comm"])),
                      fixed(p["cpu"], 2), fixed(p["usr"], 2), fixed(p["sys"], 2),
                      fixed(p["rkbyteps"], 2), fixed(p["wkbyteps"], 2),
                      std::to_string(int64_t(p["rss_kb"]))});
  }
  return rows;
}

TEST_CASE("process table export: the busiest process's counter is summary --top's CPU") {
  TempDir dir;
  const std::string path = dir / "procs.pgr";
  LoadHelper busy(dir / "unused");
  RecordBusy(path, busy, 4);

  ExitResult r = Run({"summary", "--top", "1", "--json", path});
  REQUIRE(r.code == 0);
  Json summary(r.out);
  const JsonValue& top = summary.root()["top"]["cpu"].array().at(0);
  const std::string pid = std::to_string(int64_t(top["pid"]));
  const std::string comm{std::string_view(top["comm"])};

  r = Run({"play", "--format", "openmetrics", "--instance", "h", path});
  REQUIRE(r.code == 0);
  Exposition e = ParseExposition(r.out);
  CHECK(e.errors.empty());
  CAPTURE(pid);
  const std::string labels = "{pid=\"" + pid + "\",comm=\"" + comm + "\",mode=\"";
  const double user = LastValue(e, "perfmonger_proctable_cpu_seconds_total" + labels + "user\",instance=\"h\"}");
  const double system = LastValue(e, "perfmonger_proctable_cpu_seconds_total" + labels + "system\",instance=\"h\"}");
  CHECK(std::abs(user - double(top["usr_s"])) <= 0.0051);
  CHECK(std::abs(system - double(top["sys_s"])) <= 0.0051);
  const double cpu = double(top["cpu_s"]);
  CHECK(cpu >= 1.9);
  CHECK(std::abs(user + system - cpu) <= 0.01 * cpu + 0.01);
  CHECK(e.types["perfmonger_proctable_resident_memory_bytes"] == "gauge");
  busy.End();
}

TEST_CASE("process table CSV: a row per process and interval, play's values") {
  TempDir dir;
  const std::string path = dir / "procs.pgr";
  LoadHelper busy(dir / "unused");
  RecordBusy(path, busy, 1);

  ExitResult r = Run({"play", "--format", "csv", "--proctable", path});
  REQUIRE(r.code == 0);
  std::istringstream in(r.out);
  std::string line;
  REQUIRE(std::getline(in, line));
  CHECK(line == "time,elapsed_time,pid,comm,cpu,usr,sys,rkbyteps,wkbyteps,rss_kb\r");
  std::vector<std::vector<std::string>> csv;
  while (std::getline(in, line)) csv.push_back(CsvFields(line));
  const std::vector<std::vector<std::string>> play = PlayRows(path);
  CHECK(play.size() >= 2);
  CHECK(csv == play);
  bool busy_seen = false;
  for (const auto& row : csv) busy_seen |= row[2] == std::to_string(busy.pid());
  CHECK(busy_seen);
  busy.End();

  ExitResult plain = Run({"record", "-i", "0.1", "-t", "0.25", "-l", dir / "plain.pgr"});
  REQUIRE(plain.code == 0);
  r = Run({"play", "--format", "csv", "--proctable", dir / "plain.pgr"});
  CHECK(r.code == 0);
  CHECK(r.out == "time,elapsed_time,pid,comm,cpu,usr,sys,rkbyteps,wkbyteps,rss_kb\r\n");
  CHECK(r.err.find("no process table (record with --record-procs)") != std::string::npos);
  r = Run({"play", "--proctable", path});
  CHECK(r.code == 1);
  CHECK(r.err == "perfmonger play: error: --proctable writes the process table as CSV: add "
                 "--format csv\n");
}

TEST_CASE("play --table: each row's busiest processes by CPU, as play rates them; --top N") {
  TempDir dir;
  const std::string path = dir / "procs.pgr";
  LoadHelper busy(dir / "unused");
  const long pid = busy.pid();
  const double before_s = KernelCpuSeconds(pid);  // its start-up, not recorded
  RecordBusy(path, busy, 2);
  const double kernel_s = KernelCpuSeconds(pid) - before_s;  // idle since
  busy.End();

  ExitResult r = Run({"play", "--table", "--top", "50", path});
  REQUIRE(r.code == 0);
  CAPTURE(r.out);
  const std::vector<std::vector<ProcLine>> blocks = ProcBlocks(SplitLines(r.out));
  CheckBlocks(blocks, 50);
  std::vector<double> shown;  // the busy one's %CPU, interval by interval
  for (const std::vector<ProcLine>& block : blocks)
    for (const ProcLine& p : block)
      if (p.pid == pid) {
        shown.push_back(p.cpu);
        CHECK(p.user == getpwuid(geteuid())->pw_name);  // recorded here: names
        CHECK(p.comm == "load_helper");
        CHECK(p.rss != "-");
      }
  std::vector<double> played;
  double played_s = 0;  // its %CPU times each line's interval: its CPU time
  const std::vector<double> intervals = TableIntervals(path);
  size_t tables = 0;  // play's lines with a table: each has its block
  ExitResult json = Run({"play", path});
  REQUIRE(json.code == 0);
  for (const std::string& line : SplitLines(json.out)) {
    const Json parsed(line);
    if (!parsed.Has("proctable")) continue;
    REQUIRE(tables < intervals.size());
    for (const JsonValue& p : TableOf(parsed))
      if (int64_t(p["pid"]) == pid) {
        played.push_back(double(p["cpu"]));
        played_s += played.back() / 100 * intervals[tables];
      }
    ++tables;
  }
  CHECK(tables == intervals.size());
  CHECK(blocks.size() == tables);
  // Whatever the load: a line's %CPU is over its own interval (every Nth
  // sample's covers N), so they add up to the CPU the kernel counted.
  CHECK(kernel_s >= 0.9);
  CHECK(std::abs(played_s - kernel_s) <= 0.01 * kernel_s + 0.005);
  REQUIRE(shown.size() == played.size());
  for (size_t i = 0; i < shown.size(); ++i)
    CHECK(std::abs(shown[i] - played[i]) <= 0.051);  // to its 0.1, of play's 0.01

  r = Run({"play", "--table", "--top", "2", path});
  REQUIRE(r.code == 0);
  const std::vector<std::vector<ProcLine>> two = ProcBlocks(SplitLines(r.out));
  REQUIRE(two.size() == blocks.size());
  CheckBlocks(two, 2);
  for (size_t i = 0; i < two.size(); ++i) CHECK(two[i][0].pid == blocks[i][0].pid);
  r = Run({"play", "--table", "--top", "0", path});
  CHECK(r.code == 0);
  CHECK(r.out.find(kProcHeader) == std::string::npos);
  r = Run({"play", "--top", "3", path});
  CHECK(r.code == 1);
  CHECK(r.err == "perfmonger play: error: --top lists the busiest processes under the table's "
                 "rows: add --table (summary --top: over the whole recording)\n");
  r = Run({"play", "--table", "--top", "1001", path});
  CHECK(r.code == 1);
  CHECK(r.err.find("write a count from 0 to 1000") != std::string::npos);
}

}  // namespace
}  // namespace pm::test
