// The metric families of `play --format openmetrics` and the series found
// in a recording: node_exporter's names, labels and units wherever it has
// the same quantity (DESIGN §8; node_exporter's collectors cpu, stat,
// diskstats, netdev, meminfo), `perfmonger_` names for the rest.
//
//   /proc/stat      node_cpu_seconds_total{cpu,mode}        jiffies / 100
//                   node_cpu_guest_seconds_total{cpu,mode}  (user, nice)
//                   node_context_switches_total, node_forks_total
//   /proc/interrupts perfmonger_interrupts_total{cpu,irq}   (node_exporter's
//                   node_interrupts_total has info/devices labels we lack)
//   /proc/diskstats node_disk_*{device}                     sectors × 512,
//                   ms / 1000; node_disk_io_now is a gauge
//   /proc/net/dev   node_network_{receive,transmit}_*_total{device}
//   /proc/meminfo   node_memory_<Field>_bytes gauges (kB × 1024);
//                   node_memory_HugePages_{Total,Free,Rsvd,Surp} counts
//
// Series are created as rows first appear (cores by index, devices and
// IRQ rows by name), so a row that shows up late gets its series then.
#pragma once

#include "playback/disk_filter.hh"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "playback/openmetrics_text.hh"
#include "playback/raw_sample.hh"

namespace pm {

struct MetricFamily {
  std::string name;   // as in `# TYPE`: a counter's name has no _total
  bool counter = true;
  std::string unit;   // "" for none
  std::string help;
  std::vector<uint32_t> series;  // in order of appearance
};

struct MetricSeries {
  uint32_t family = 0;
  Scale scale = Scale::kOne;
  std::string labels;  // `{...}`, the common labels included
};

class MetricCatalog {
 public:
  // `common_labels`: `name="value",...` added to every series (may be
  // empty). `disk_only`, if set, keeps the disks whose name matches.
  MetricCatalog(std::string common_labels, const DiskFilter* disk_only);

  // row[0] is left to the caller; row[1 + id] = the raw counter of series
  // `id`, or ColumnSpool::kAbsent. Series first seen here are created.
  void FillRow(const RawSample& s, std::vector<uint64_t>& row);

  const std::vector<MetricFamily>& families() const { return families_; }
  const MetricSeries& series(uint32_t id) const { return series_[id]; }
  size_t series_count() const { return series_.size(); }

 private:
  uint32_t Add(uint32_t family, Scale scale, const std::string& labels);
  uint32_t CoreBase(size_t core);
  uint32_t DeviceBase(std::unordered_map<std::string, int64_t>& bases,
                      const std::string& name, bool disk);
  uint32_t IntrId(const std::string& irq, size_t cpu);
  uint32_t MemBase();
  uint32_t ProcBase();

  std::string common_;
  const DiskFilter* disk_only_;
  std::vector<MetricFamily> families_;
  std::vector<MetricSeries> series_;
  std::vector<int64_t> core_bases_;  // -1: not yet
  std::unordered_map<std::string, int64_t> disk_bases_, net_bases_;  // -1: left out
  std::unordered_map<std::string, std::vector<int64_t>> intr_ids_;
  int64_t mem_base_ = -1, proc_base_ = -1;
  std::vector<uint64_t>* row_ = nullptr;  // the row being filled
};

}  // namespace pm
