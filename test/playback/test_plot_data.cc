// `plot`'s data files against PerfMonger's own plot formatter output for
// its recordings (byte for byte), and what ours adds: gaps at pauses, marks,
// --disk-only.
#include <doctest/doctest.h>

#include "playback/reports/disk_filter.hh"
#include <string>
#include <vector>

#include "playback/outputs/plot_data.hh"
#include "playback/reading/recording_reader.hh"
#include "proto/stream.hh"
#include "test/playback/legacy_data.hh"
#include "test/playback/sample_rows.hh"

namespace {

pm::PlotData Format(const std::string& bytes, const pm::DiskFilter* disk_only = nullptr) {
  pm::MemoryInputStream file(bytes);
  pm::RecordingReader reader(file);
  pm::PlotData data(disk_only);
  pm::RawSample sample;
  pm::RecordingEvent event;
  for (;;) {
    auto item = reader.Next(sample, event);
    if (item == pm::RecordingReader::Item::kEnd) break;
    if (item == pm::RecordingReader::Item::kSample) data.OnSample(sample);
    else data.OnEvent(event);
  }
  CHECK_FALSE(reader.truncated());
  return data;
}

pm::RawSample At(int64_t seconds, uint64_t user, uint64_t idle, uint64_t writes) {
  pm::RawSample s;
  s.time_ns = seconds * 1000000000;
  pm::test::CpuCounters cpu = {user, 0, 0, idle, 0, 0, 0, 0, 0, 0};
  pm::test::SetCpu(s, cpu, {cpu});
  for (const char* name : {"vdb", "vda"}) {
    pm::test::DiskCounters d{};
    d[4] = writes;
    d[6] = writes * 8;
    pm::test::AddDisk(s, name, d);
  }
  return s;
}

pm::RecordingEvent Event(const char* kind, int64_t seconds, const char* label = "") {
  pm::RecordingEvent e;
  e.kind = kind;
  e.time_ns = seconds * 1000000000;
  e.label = label;
  return e;
}

}  // namespace

TEST_CASE("plot data: busy100.pgr gives PerfMonger's cpu.dat and disk.dat") {
  for (const char* name : {"busy100.pgr", "busy100.pgr.gz"}) {
    CAPTURE(name);
    pm::PlotData data = Format(pm::test::ReadLegacyFile(name));
    CHECK(data.pairs() == 3);
    CHECK(data.File("cpu.dat") == pm::test::ReadLegacyFile("busy100.pgr.plot-formatted.cpu.dat"));
    CHECK(data.File("disk.dat") == pm::test::ReadLegacyFile("busy100.pgr.plot-formatted.disk.dat"));
    CHECK(data.File("mem.dat").empty());  // recorded without memory
  }
}

TEST_CASE("plot data: small-all.pgr.gz gives PerfMonger's cpu, disk and mem.dat") {
  pm::PlotData data = Format(pm::test::ReadLegacyFile("small-all.pgr.gz"));
  CHECK(data.Blocks("cpu.dat") == std::vector<std::string>{"all", "0", "1"});
  CHECK(data.File("cpu.dat") == pm::test::ReadLegacyFile("small-all.pgr.plot-formatted.cpu.dat"));
  CHECK(data.File("disk.dat") == pm::test::ReadLegacyFile("small-all.pgr.plot-formatted.disk.dat"));
  CHECK(data.File("mem.dat") == pm::test::ReadLegacyFile("small-all.pgr.plot-formatted.mem.dat"));
  std::string net = data.File("net.dat");
  CHECK(net.find("# interface: lo\n") != std::string::npos);
  CHECK(net.find("\n\n\n# interface: total\n# elapsed_time\trx_kB/s\t") != std::string::npos);
}

TEST_CASE("plot data: a pause leaves a gap, no line spans it, marks are kept") {
  pm::PlotData data;
  data.OnSample(At(0, 0, 0, 0));
  data.OnEvent(Event("mark", 1, "warm up"));
  data.OnSample(At(1, 50, 50, 10));
  data.OnSample(At(2, 100, 100, 20));  // the pause's closing sample
  data.OnEvent(Event("pause", 2));
  data.OnEvent(Event("resume", 10));
  data.OnSample(At(10, 100, 100, 900)); // the resume's baseline
  data.OnSample(At(11, 200, 100, 910));
  CHECK(data.pairs() == 3);  // 0-1, 1-2, 10-11: never 2-10
  std::string cpu = data.File("cpu.dat");
  // The core's block: two lines, a blank one, then the line after the pause.
  CHECK(cpu.find("0.000000\t50.000000\t") != std::string::npos);
  CHECK(cpu.find("1.000000\t50.000000\t0.000000\t0.000000\t0.000000\t0.000000\t0.000000"
                 "\t0.000000\t0.000000\t50.000000\n\n10.000000\t100.000000\t") !=
        std::string::npos);
  CHECK(data.File("disk.dat").find("\n\n10.000000\t0.000000\t10.000000\t") != std::string::npos);
  REQUIRE(data.marks().size() == 1);
  CHECK(data.marks()[0].label == "warm up");
  CHECK(data.marks()[0].elapsed == doctest::Approx(1.0));
  REQUIRE(data.pauses().size() == 1);
  CHECK(data.pauses()[0].from == doctest::Approx(2.0));
  CHECK(data.pauses()[0].to == doctest::Approx(10.0));
  CHECK(data.end() == doctest::Approx(10.0));
}

TEST_CASE("plot data: --disk-only keeps the matching disks, sorted, and their total") {
  pm::DiskFilter only("^vdb$");
  pm::PlotData data(&only);
  data.OnSample(At(0, 0, 0, 0));
  data.OnSample(At(1, 10, 10, 5));
  CHECK(data.Blocks("disk.dat") == std::vector<std::string>{"vdb", "total"});
  std::string disk = data.File("disk.dat");
  CHECK(disk.find("# device: vda") == std::string::npos);
  // total = vdb alone: 5 writes/s, not 10
  CHECK(disk.find("# device: total\n# elapsed_time\tr_iops\tw_iops\tr_MB/s\tw_MB/s\t"
                  "r_latency\tw_latency\tr_avgsz\tw_avgsz\tqdepth\n"
                  "0.000000\t0.000000\t5.000000\t") != std::string::npos);
  pm::PlotData all;
  all.OnSample(At(0, 0, 0, 0));
  all.OnSample(At(1, 10, 10, 5));
  CHECK(all.Blocks("disk.dat") == std::vector<std::string>{"vda", "vdb", "total"});
}
