// Every collector in every output, on a recording of this machine: play's
// JSON, summary (text with --all, --json, --phases), CSV (each column
// play's value at its JSON path), OpenMetrics, and plot's data files and
// charts drawn by Debian's gnuplot. The process row is a child of this
// test, the cgroup one made for it below the writable cgroup2 mount
// (skipped, saying so, without one).
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "proto/pgr_collector_spec.hh"
#include "test/playback/csv_paths.hh"
#include "test/plot_styles.hh"
#include "test/process/cgroup_group.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

// Where each collector shows, output by output.
struct Shows {
  std::string collector;  // its descriptor's name: play's and --json's key, CSV's prefix
  std::string block;      // summary's text block
  std::string family;     // an OpenMetrics family
  std::string file;       // plot's data file
  std::vector<std::string> charts;
};

const Shows kShows[] = {
    {"cpu", "* Average CPU usage", "node_cpu_seconds", "cpu.dat", {"cpu", "allcpu"}},
    {"intr", "* Average INTERRUPTS", "perfmonger_interrupts", "intr.dat", {"intr"}},
    {"disk", "* Average DEVICE usage", "node_disk_reads_completed", "disk.dat",
     {"disk-iops", "disk-transfer"}},
    {"net", "* Average NETWORK usage", "node_network_receive_bytes", "net.dat", {"net"}},
    {"mem", "* Memory usage", "node_memory_MemTotal_bytes", "mem.dat", {"mem"}},
    {"pressure", "* Pressure stall", "node_pressure_cpu_waiting_seconds", "pressure.dat",
     {"pressure"}},
    {"load", "* Load (last sample)", "node_load1", "load.dat", {"load"}},
    {"vmstat", "* Paging and swapping", "node_vmstat_pgfault", "paging.dat", {"paging", "faults"}},
    {"netstat", "* TCP and UDP", "node_netstat_Tcp_ActiveOpens", "tcp.dat", {"tcp"}},
    {"sockstat", "* Sockets", "node_sockstat_sockets_used", "sockets.dat", {"sockets"}},
    {"procs", "* Process ", "perfmonger_process_cpu_seconds", "process.dat",
     {"process-cpu", "process-io"}},
    {"cgroups", "* Cgroup ", "container_cpu_usage_seconds", "cgroup.dat",
     {"cgroup-cpu", "cgroup-io"}},
};

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
  TEST_CASE("the table below names every collector") {
    for (const CollectorSpec& c : Collectors()) {
      CAPTURE(c.name);
      CHECK(std::any_of(std::begin(kShows), std::end(kShows),
                        [&](const Shows& s) { return s.collector == c.name; }));
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
    std::vector<std::string> args = {"record", "-l", out, "-i", "10", "--record-intr",
                                     "--record-load", "--record-vmstat", "--record-netstat",
                                     "--record-sockstat",
                                     "--pid", std::to_string(child.pid())};
    if (pressure) args.push_back("--record-pressure");
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
    for (const Shows& c : kShows) {
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
      CHECK(std::filesystem::file_size(charts + "/" + c.file) > 0);
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
