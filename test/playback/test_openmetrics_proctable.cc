// play --format openmetrics of "procs" lines (record --record-procs) built
// in memory: each process's rows summed into counters from a 0 point at
// the start of its first interval, the gauge, rows without I/O, exits and
// a reused pid, all in one piece per family and series.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "playback/outputs/export_openmetrics.hh"
#include "playback/reading/proc_table_event.hh"
#include "proto/stream.hh"
#include "test/playback/openmetrics_check.hh"

namespace pm {
namespace {

using test::ParseExposition;

constexpr int64_t kS = 1'000'000'000;
constexpr int64_t kWall0 = 1'796'076'000 * kS;  // wall time at mono 0

ProcTableRow Row(uint32_t pid, uint64_t start, std::string comm, uint64_t usr_us,
                 uint64_t sys_us, std::optional<uint64_t> read, uint64_t rss_kb) {
  ProcTableRow r;
  r.pid = pid, r.start = start, r.comm = std::move(comm);
  r.utime_us = usr_us, r.stime_us = sys_us, r.cpu_ns = (usr_us + sys_us) * 1000;
  r.read_bytes = read, r.write_bytes = read ? std::optional<uint64_t>(*read * 2) : std::nullopt;
  r.rss_kb = rss_kb;
  return r;
}

// A procs line over [k-1, k] seconds.
RecordingEvent Procs(int k, std::vector<ProcTableRow> rows, std::vector<uint32_t> exited = {}) {
  auto e = std::make_shared<ProcTableEvent>();
  e->since_mono_ns = (k - 1) * kS;
  e->rows = std::move(rows);
  e->exited = std::move(exited);
  RecordingEvent ev;
  ev.kind = "procs", ev.mono_ns = k * kS, ev.time_ns = kWall0 + k * kS, ev.procs = e;
  return ev;
}

test::Exposition Export(const std::vector<RecordingEvent>& events) {
  RecordingInfo info;
  OpenMetricsOptions options;
  options.instance = "db-1";
  OpenMetricsExport exporter(info, options);
  for (const RecordingEvent& e : events) exporter.OnEvent(e);
  StringOutputStream out;
  exporter.Write(out);
  return ParseExposition(out.data());
}

// "value@seconds " per point, seconds past kWall0.
std::string Points(test::Exposition& e, const std::string& series) {
  std::string out;
  for (const test::Point& p : e.series[series])
    out += p.value + "@" + std::to_string(std::stod(p.ts) - 1'796'076'000.0).substr(0, 3) + " ";
  return out;
}

TEST_CASE("openmetrics proctable: counters summed per process, from 0 at its first interval") {
  auto e = Export({
      Procs(1, {Row(10, 5, "db", 250'000, 10'000, 4096, 1000)}),
      Procs(2, {Row(10, 5, "db", 500'000, 20'000, 0, 1200), Row(11, 7, "sh", 1, 2, std::nullopt, 8)}),
      Procs(4, {Row(10, 5, "db", 250'000, 0, 100, 900)}),
  });
  REQUIRE(e.errors.empty());
  const std::string db = "{pid=\"10\",comm=\"db\"";
  CHECK(Points(e, "perfmonger_proctable_cpu_seconds_total" + db + ",mode=\"user\",instance=\"db-1\"}") ==
        "0.000000@0.0 0.250000@1.0 0.750000@2.0 1.000000@4.0 ");
  CHECK(Points(e, "perfmonger_proctable_cpu_seconds_total" + db + ",mode=\"system\",instance=\"db-1\"}") ==
        "0.000000@0.0 0.010000@1.0 0.030000@2.0 0.030000@4.0 ");
  CHECK(Points(e, "perfmonger_proctable_read_bytes_total" + db + ",instance=\"db-1\"}") ==
        "0@0.0 4096@1.0 4096@2.0 4196@4.0 ");
  CHECK(Points(e, "perfmonger_proctable_written_bytes_total" + db + ",instance=\"db-1\"}") ==
        "0@0.0 8192@1.0 8192@2.0 8392@4.0 ");
  CHECK(Points(e, "perfmonger_proctable_resident_memory_bytes" + db + ",instance=\"db-1\"}") ==
        "1024000@0.0 1024000@1.0 1228800@2.0 921600@4.0 ");
  // No I/O readable for sh: no I/O series, its CPU and memory still.
  CHECK(e.series.count("perfmonger_proctable_read_bytes_total{pid=\"11\",comm=\"sh\",instance=\"db-1\"}") == 0);
  CHECK(Points(e, "perfmonger_proctable_cpu_seconds_total{pid=\"11\",comm=\"sh\",mode=\"user\",instance=\"db-1\"}") ==
        "0.000000@1.0 0.000001@2.0 ");
  CHECK(e.types["perfmonger_proctable_cpu_seconds"] == "counter");
  CHECK(e.types["perfmonger_proctable_resident_memory_bytes"] == "gauge");
}

TEST_CASE("openmetrics proctable: a pid exits and comes back as another process") {
  auto e = Export({
      Procs(1, {Row(10, 5, "sh", 100'000, 0, 0, 1)}),
      Procs(2, {Row(10, 5, "sh", 100'000, 0, 0, 1)}, {10}),
      Procs(3, {Row(12, 9, "cc", 1, 0, 0, 1)}),
      // pid 10 again, a later start: a new process, the same labels
      Procs(4, {Row(10, 30, "sh", 300'000, 0, 0, 1)}),
  });
  REQUIRE(e.errors.empty());
  // The new process starts from 0 at the start of its first interval: a
  // counter reset, as Prometheus reads it.
  CHECK(Points(e, "perfmonger_proctable_cpu_seconds_total{pid=\"10\",comm=\"sh\",mode=\"user\",instance=\"db-1\"}") ==
        "0.000000@0.0 0.100000@1.0 0.200000@2.0 0.000000@3.0 0.300000@4.0 ");
}

TEST_CASE("openmetrics proctable: no procs lines, no families") {
  auto e = Export({});
  REQUIRE(e.errors.empty());
  CHECK(e.types.count("perfmonger_proctable_cpu_seconds") == 0);
}

}  // namespace
}  // namespace pm
