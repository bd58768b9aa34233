// Every collector in every output, on a recording of this machine: play's
// JSON, summary (text with --all, --json, --phases), CSV (each column
// play's value at its JSON path), OpenMetrics, and plot's data files and
// charts drawn by Debian's gnuplot. The process row is a child of this
// test, the cgroup one made for it below the writable cgroup2 mount
// (skipped, saying so, without one).
#include <doctest/doctest.h>

#include <cctype>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <vector>

#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/reports/reports.hh"
#include "proto/pgr_collector_spec.hh"
#include "test/playback/csv_paths.hh"
#include "test/plot_styles.hh"
#include "test/process/cgroup_group.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

// Where each collector shows, output by output, as its report states it
// (playback/reports/report.hh): a new collector is in this test untouched.
struct Shows {
  std::string collector;  // its descriptor's name: play's and --json's key, CSV's prefix
  std::string block;      // summary's text block: "* " and its heading
  std::string family;     // its first OpenMetrics family
  std::vector<std::string> files;   // plot's data files
  std::vector<std::string> charts;  // plot's charts
};

std::vector<Shows> AllShows() {
  std::vector<Shows> all;
  std::span<const ReportEntry> reports = Reports();
  for (size_t i = 0; i < reports.size(); ++i) {
    const Report& r = *reports[i].report;
    Shows s{std::string(Collectors()[i].name), "* " + std::string(r.heading), "", {}, {}};
    std::vector<MetricFamily> families;
    if (r.openmetrics != nullptr) MetricCatalog::Declare(*r.openmetrics, families);
    if (!families.empty()) s.family = families.front().name;
    if (r.plot != nullptr) {
      for (const PlotFileSpec& f : r.plot->files) s.files.emplace_back(f.name);
      for (const ChartSpec& c : r.plot->charts) s.charts.emplace_back(c.name);
    }
    all.push_back(std::move(s));
  }
  return all;
}

// `record`'s options that turn every collector on: the off-by-default
// ones' flags (pressure's where the kernel has it); --pid and --cgroup,
// which name a row, are the caller's.
std::vector<std::string> RecordEverything(bool pressure) {
  std::vector<std::string> args;
  for (const CollectorSpec& c : Collectors())
    if (!c.on_by_default && c.value.empty() && (c.name != "pressure" || pressure))
      args.push_back("--" + std::string(c.flag));
  return args;
}

// gnuplot draws every chart: give it time on a loaded machine.
ExitResult RunLong(std::vector<std::string> args) {
  SpawnOptions options;
  options.args = std::move(args);
  return Child(std::move(options)).Wait(After(std::chrono::seconds(180)));
}

// A family of the exposition with at least one sample.
bool HasSamples(const std::string& om, const std::string& family) {
  for (const std::string& line : SplitLines(om))
    if (line.starts_with(family + "_total{") || line.starts_with(family + "{")) return true;
  return false;
}

// Every key play prints (the last part of each CSV column's JSON path,
// row names and indices aside) is named in perfmonger-play(1), which
// lists them collector by collector.
void CheckKeysInManPage(const std::vector<std::string>& columns) {
  const char* legacy = std::getenv("PM_LEGACY_DATA");  // SOURCE/test/data/legacy
  REQUIRE(legacy != nullptr);
  std::string page = ReadFileBytes(std::filesystem::path(legacy) / "../../../man/perfmonger-play.1");
  for (const std::string& column : columns) {
    std::string key = column.substr(column.rfind('.') + 1);
    if (key.empty() || std::isdigit(static_cast<unsigned char>(key[0]))) continue;
    CAPTURE(column);
    CHECK(page.find(key) != std::string::npos);
  }
}

}  // namespace

TEST_SUITE("collectors on the real machine") {
  TEST_CASE("every collector's report names its block, a family, its files and charts") {
    std::vector<Shows> all = AllShows();
    REQUIRE(all.size() == Collectors().size());
    for (const Shows& c : all) {
      CAPTURE(c.collector);
      CHECK(c.block.size() > 2);
      CHECK(!c.family.empty());
      CHECK(!c.files.empty());
      CHECK(!c.charts.empty());
    }
  }

  TEST_CASE("every collector in play, summary, phases, CSV, OpenMetrics and plot") {
    TestGroup group;
    const bool cgroups = group.made;
    const bool pressure = std::filesystem::exists("/proc/pressure/cpu");
    if (!cgroups) MESSAGE("cgroups left out: no writable cgroup v2 hierarchy here");
    if (!pressure) MESSAGE("pressure left out: this kernel has no /proc/pressure");
    // The recorded process, moved into the test's group when there is one.
    SpawnOptions sleeper;
    sleeper.program = "/bin/sleep";
    sleeper.args = {"120"};
    Child child(std::move(sleeper));
    if (cgroups) {
      std::ofstream procs(group.path + "/cgroup.procs");
      procs << child.pid() << "\n";
    }
    TempDir dir;
    std::string out = dir / "all.pgr.gz";
    // --record-procs: the process table, for procs' proctable.dat and chart.
    std::vector<std::string> args = {"record", "-l", out, "-i", "10", "--record-procs",
                                     "--pid", std::to_string(child.pid())};
    for (const std::string& flag : RecordEverything(pressure)) args.push_back(flag);
    if (cgroups) args.insert(args.end(), {"--cgroup", group.name});
    CommandSession s(args);
    s.ReadReadyLine();
    // A CPU tick before each sample: no pair of zero width is left out.
    AwaitCpuTick();
    CHECK(bool(s.Command("sample").root()["ok"]));
    CHECK(bool(s.Command("mark second").root()["ok"]));
    AwaitCpuTick();
    CHECK(bool(s.Command("sample").root()["ok"]));
    AwaitCpuTick();
    s.CloseStop();
    ExitResult r = s.Wait();
    REQUIRE(r.code == 0);
    child.Signal(SIGKILL);

    ExitResult play = Run({"play", out});
    ExitResult csv = Run({"play", "--format", "csv", out});
    ExitResult om = Run({"play", "--format", "openmetrics", out});
    ExitResult text = Run({"summary", "--all", "--no-pager", out});
    ExitResult json = Run({"summary", "--all", "--json", out});
    ExitResult phases = Run({"summary", "--phases", "--json", out});
    std::string charts = dir / "charts";
    ExitResult plot = RunLong({"plot", "-T", "png", "--save", "-o", charts, out});
    for (const ExitResult* e : {&play, &csv, &om, &text, &json, &phases, &plot}) {
      CAPTURE(e->err);
      REQUIRE(e->code == 0);
    }
    std::vector<std::string> lines = SplitLines(play.out), rows = SplitLines(csv.out);
    REQUIRE(lines.size() >= 2);
    REQUIRE(rows.size() == lines.size() + 1);  // CSV's header, then a row per line
    for (std::string& row : rows) row.pop_back();  // the CR of CRLF
    std::vector<std::string> head = SplitCsv(rows[0]);
    Json summary(json.out), split(phases.out);
    REQUIRE(split.root().array().size() == 2);  // start, second
    for (const Shows& c : AllShows()) {
      CAPTURE(c.collector);
      if ((c.collector == "cgroups" && !cgroups) || (c.collector == "pressure" && !pressure))
        continue;
      CHECK(Json(lines.back()).Has(c.collector));
      CHECK(text.out.find("\n" + c.block) != std::string::npos);
      CHECK(summary.Has(c.collector));
      for (const JsonValue& phase : split.root().array()) CHECK(phase[c.collector].exists());
      bool has_column = false;
      for (const std::string& column : head) has_column |= column.starts_with(c.collector + ".");
      CHECK(has_column);
      CHECK(HasSamples(om.out, c.family));
      for (const std::string& file : c.files) {
        CAPTURE(file);
        CHECK(std::filesystem::file_size(charts + "/" + file) > 0);
      }
      for (const std::string& chart : c.charts) {
        CAPTURE(chart);
        std::string png = ReadFileBytes(charts + "/" + chart + ".png");
        CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
        CHECK(png.size() > 2000);
        // Every series of the chart told apart: its own colour or dash.
        for (const auto& series : PlotCommands(ReadFileBytes(charts + "/" + chart + ".gp")))
          CHECK(SameLook(series) == "");
      }
    }
    for (size_t i = 0; i < lines.size(); ++i) CheckRowIsPlay(head, SplitCsv(rows[i + 1]), lines[i]);
    CheckKeysInManPage(head);
    // The process's series are labelled with its pid and its comm.
    CHECK(om.out.find("perfmonger_process_cpu_seconds_total{pid=\"" +
                      std::to_string(child.pid()) + "\",comm=\"sleep\",mode=\"user\"") !=
          std::string::npos);
  }
}

}  // namespace pm::test
