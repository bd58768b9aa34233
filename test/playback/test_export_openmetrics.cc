// play --format openmetrics on samples built in memory: node_exporter's
// names, units and labels; each family and series in one piece whatever the
// spool's block size; the phase gauge around marks and pauses.
#include <doctest/doctest.h>

#include "playback/reports/disk_filter.hh"
#include <string>
#include <vector>

#include "playback/outputs/export_openmetrics.hh"
#include "test/playback/openmetrics_check.hh"
#include "test/playback/pgr_builder.hh"
#include "proto/columns/disk.hh"

namespace pm {
namespace {

using test::ParseExposition;
using test::Point;

struct Item {
  RawSample sample;
  RecordingEvent event;  // kind "" for a sample
};

RecordingEvent Ev(std::string kind, int64_t t_ns, std::string label = "") {
  return {std::move(kind), t_ns, std::move(label), ""};
}

std::string Export(const std::vector<Item>& items, OpenMetricsOptions options,
                   MetaList meta = {}, uint64_t* dropped = nullptr) {
  RecordingInfo info;
  info.host = "host-1";
  info.meta = std::move(meta);
  OpenMetricsExport exporter(info, options);
  for (const Item& item : items) {
    if (item.event.kind.empty()) exporter.OnSample(item.sample);
    else exporter.OnEvent(item.event);
  }
  StringOutputStream out;
  exporter.Write(out);
  if (dropped != nullptr) *dropped = exporter.samples_dropped();
  return out.data();
}

std::vector<Item> Samples(const test::Shape& shape, int n) {
  std::vector<Item> items;
  for (int k = 0; k < n; ++k) items.push_back({test::MakeSample(shape, static_cast<uint64_t>(k)), {}});
  return items;
}

OpenMetricsOptions Options(size_t block_bytes = 1 << 20) {
  OpenMetricsOptions o;
  o.instance = "db-1";
  o.block_bytes = block_bytes;
  return o;
}

std::string Num(uint64_t v) { return std::to_string(v); }

TEST_SUITE("export") {

TEST_CASE("openmetrics: node_exporter's names, units and labels") {
  test::Shape shape;
  std::vector<Item> items = Samples(shape, 2);
  const RawSample& s = items[0].sample;
  auto e = ParseExposition(Export(items, Options(), {{"query_id", "q42"}, {"who", "a\"b"}}));
  REQUIRE(e.errors.empty());
  std::string common = "instance=\"db-1\",query_id=\"q42\",who=\"a\\\"b\"";
  auto first = [&](const std::string& series) {
    REQUIRE_MESSAGE(e.series.count(series) == 1, series);
    return e.series[series][0];
  };
  uint64_t user = test::Row(s, "cpu", "0")[0];
  Point p = first("node_cpu_seconds_total{cpu=\"0\",mode=\"user\"," + common + "}");
  CHECK(p.value == Num(user / 100) + "." + (user % 100 < 10 ? "0" : "") + Num(user % 100));
  CHECK(p.ts == "1700000000.000");
  CHECK(e.series.count("node_cpu_seconds_total{cpu=\"1\",mode=\"steal\"," + common + "}") == 1);
  CHECK(e.series.count("node_cpu_guest_seconds_total{cpu=\"0\",mode=\"nice\"," + common + "}") == 1);
  const test::Values sda = test::Row(s, "disk", "sda");
  std::string dev = "{device=\"sda\"," + common + "}";
  CHECK(first("node_disk_reads_completed_total" + dev).value == Num(sda[0]));
  CHECK(first("node_disk_read_bytes_total" + dev).value == Num(sda[2] * 512));
  CHECK(first("node_disk_written_bytes_total" + dev).value == Num(sda[6] * 512));
  CHECK(first("node_disk_io_now" + dev).value == Num(sda[8]));
  std::string io_ms = Num(sda[9] / 1000) + "." + std::string(3 - Num(sda[9] % 1000).size(), '0') +
                      Num(sda[9] % 1000);
  CHECK(first("node_disk_io_time_seconds_total" + dev).value == io_ms);
  // node_exporter's discard and flush counters: sectors stay sectors.
  CHECK(first("node_disk_discards_completed_total" + dev).value == Num(sda[11]));
  CHECK(first("node_disk_discarded_sectors_total" + dev).value == Num(sda[13]));
  CHECK(first("node_disk_flush_requests_total" + dev).value == Num(sda[15]));
  std::string eth = "{device=\"eth0\"," + common + "}";
  CHECK(first("node_network_receive_bytes_total" + eth).value == Num(test::Row(s, "net", "eth0")[0]));
  CHECK(first("node_network_transmit_colls_total" + eth).value == Num(test::Row(s, "net", "eth0")[13]));
  CHECK(first("node_memory_MemFree_bytes{" + common + "}").value == Num(test::Row(s, "mem", "")[1] * 1024));
  CHECK(first("node_memory_HugePages_Total{" + common + "}").value == Num(test::Row(s, "mem", "")[25]));
  CHECK(first("node_context_switches_total{" + common + "}").value == Num(test::Row(s, "proc", "")[0]));
  CHECK(first("node_forks_total{" + common + "}").value == Num(test::Row(s, "proc", "")[1]));
  CHECK(first("perfmonger_interrupts_total{cpu=\"1\",irq=\"NMI\"," + common + "}").value ==
        Num(test::Row(s, "intr", "NMI")[1]));
  CHECK(e.types["node_cpu_seconds"] == "counter");
  CHECK(e.types["node_disk_io_now"] == "gauge");
  CHECK(e.types["node_memory_MemFree_bytes"] == "gauge");
}

TEST_CASE("openmetrics: a kernel without discards and flushes has no such series") {
  test::Shape shape;
  RecordingInfo info;
  info.recorded.assign(MemberCount(), {});
  info.recorded[MemberIndexOf("disk")].assign(kDiskFields.size(), false);
  for (size_t f = 0; f < kDiskBaseFields; ++f) info.recorded[MemberIndexOf("disk")][f] = true;
  OpenMetricsExport exporter(info, Options());
  for (const Item& item : Samples(shape, 2)) exporter.OnSample(item.sample);
  StringOutputStream out;
  exporter.Write(out);
  CHECK(out.data().find("node_disk_io_time_weighted_seconds_total{") != std::string::npos);
  CHECK(out.data().find("node_disk_discard") == std::string::npos);
  CHECK(out.data().find("node_disk_flush") == std::string::npos);
}

TEST_CASE("openmetrics: every family and series in one piece, whatever the block size") {
  test::Shape shape;
  for (size_t block : {size_t{64}, size_t{4096}, size_t{1} << 20}) {
    CAPTURE(block);
    std::vector<Item> items = Samples(shape, 40);
    // A disk that appears late, in the middle of a block.
    for (size_t k = 17; k < items.size(); ++k) {
      test::DiskCounters d;
      d.fill(k);
      test::AddDisk(items[k].sample, "sdz", d);
    }
    std::string text = Export(items, Options(block));
    auto e = ParseExposition(text);
    CHECK(e.errors.empty());
    for (const std::string& err : e.errors) MESSAGE(err);
    // Core 1 is absent in odd samples: its series has the even ones only.
    CHECK(e.series["node_cpu_seconds_total{cpu=\"1\",mode=\"user\",instance=\"db-1\"}"].size() == 20);
    CHECK(e.series["node_cpu_seconds_total{cpu=\"0\",mode=\"user\",instance=\"db-1\"}"].size() == 40);
    auto sdz = e.series["node_disk_reads_completed_total{device=\"sdz\",instance=\"db-1\"}"];
    REQUIRE(sdz.size() == 23);
    CHECK(sdz[0].value == "17");
    CHECK(sdz[0].ts == "1700000017.000");
    CHECK(text.size() > 6);
    CHECK(text.substr(text.size() - 6) == "# EOF\n");
  }
}

TEST_CASE("openmetrics: a sample not later to the millisecond is left out") {
  test::Shape shape;
  std::vector<Item> items = Samples(shape, 3);
  items[1].sample.time_ns = items[0].sample.time_ns + 400'000;  // the same ms
  uint64_t dropped = 0;
  auto e = ParseExposition(Export(items, Options(), {}, &dropped));
  CHECK(dropped == 1);
  CHECK(e.errors.empty());
  CHECK(e.series["node_forks_total{instance=\"db-1\"}"].size() == 2);
}

TEST_CASE("openmetrics: --disk-only keeps the matching disks; no instance label when none") {
  test::Shape shape;
  DiskFilter only("^nvme");
  OpenMetricsOptions o = Options();
  o.disk_only = &only;
  o.instance = "";
  auto e = ParseExposition(Export(Samples(shape, 2), o));
  CHECK(e.series.count("node_disk_reads_completed_total{device=\"nvme0n1\"}") == 1);
  CHECK(e.series.count("node_disk_reads_completed_total{device=\"sda\"}") == 0);
  CHECK(e.series.count("node_forks_total") == 1);
}

TEST_CASE("openmetrics: marks and pauses as perfmonger_phase_info") {
  test::Shape shape;
  auto at = [&](int k) { return test::MakeSample(shape, static_cast<uint64_t>(k)); };
  const int64_t s = 1'000'000'000;
  int64_t t0 = at(0).time_ns;
  std::vector<Item> items = {
      {at(0), {}}, {at(1), {}},
      {{}, Ev("mark", t0 + s + s / 2, "q42")},  // 1.5 s
      {at(2), {}},
      {at(3), {}}, {{}, Ev("pause", t0 + 3 * s)},  // closing sample, then the event
      {{}, Ev("resume", t0 + 5 * s)}, {at(5), {}},
      {{}, Ev("end", t0 + 5 * s)},
  };
  auto e = ParseExposition(Export(items, Options()));
  REQUIRE(e.errors.empty());
  auto points = [&](const std::string& phase, const std::string& state) {
    std::string out;
    for (const Point& p : e.series["perfmonger_phase_info{phase=\"" + phase + "\",state=\"" +
                                   state + "\",instance=\"db-1\"}"])
      out += p.value + "@" + p.ts.substr(8) + " ";
    return out;
  };
  CHECK(points("start", "recording") == "1@00.000 1@01.000 0@01.500 ");
  // The pause's closing sample (at 3 s) and the pause itself share a
  // millisecond: the state after the pause wins.
  CHECK(points("q42", "recording") == "1@01.500 1@02.000 0@03.000 1@05.000 ");
  CHECK(points("q42", "paused") == "1@03.000 0@05.000 ");
  CHECK(e.types["perfmonger_phase_info"] == "gauge");
}

}  // TEST_SUITE

}  // namespace
}  // namespace pm
