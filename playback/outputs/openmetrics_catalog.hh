// The metric families of `play --format openmetrics` and the series found
// in a recording. Each report (playback/reports/report.hh, its `openmetrics` slot)
// declares its families, under node_exporter's names, labels and units
// wherever node_exporter has the same quantity (DESIGN §8), and puts its
// raw counters into a sample's row; the catalog keeps the families in
// kCollectors order and numbers the series. Each collector's names are in
// its report file and in docs/metric-names.md.
//
// Series are created as rows first appear (cores by index, devices and
// IRQ rows by name), so a row that shows up late gets its series then.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "playback/outputs/openmetrics_text.hh"
#include "playback/reading/raw_sample.hh"

namespace pm {

class DiskFilter;
struct MetricsSlot;  // playback/reports/report.hh

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

// A family of a report that exports a member field by field (disk,
// cgroups): its declaration and how its series scale the field, in a
// table in the member's field order.
struct FieldFamily {
  const char* name;
  bool counter;
  const char* unit;
  const char* help;
  Scale scale;
  const char* extra = "";  // labels after the row's own
};

// What a report's `families` function declares, in order; the report's
// series name them by that order (0, 1, ...).
class MetricFamilies {
 public:
  // Each of `list`, in order.
  void Declare(std::span<const FieldFamily> list);
  void Counter(std::string name, std::string unit, std::string help) {
    out_.push_back({std::move(name), true, std::move(unit), std::move(help), {}});
  }
  void Gauge(std::string name, std::string unit, std::string help) {
    out_.push_back({std::move(name), false, std::move(unit), std::move(help), {}});
  }

 private:
  friend class MetricCatalog;
  explicit MetricFamilies(std::vector<MetricFamily>& out) : out_(out) {}
  std::vector<MetricFamily>& out_;
};

// What a report's `series` function writes for one sample.
class MetricRow {
 public:
  static constexpr uint32_t kLeftOut = UINT32_MAX;

  const RecordingInfo& info() const { return info_; }
  const DiskFilter* disk_only() const { return disk_only_; }
  // The series of row `key`: make() creates them the first time (and
  // returns the first one's id, or kLeftOut), later calls return the same.
  template <class Make>
  uint32_t Block(const std::string& key, Make make) {
    auto [it, fresh] = blocks_->try_emplace(key, kLeftOut);
    if (fresh) it->second = make();
    return it->second;
  }
  // A new series of the report's family `family` (its declared order),
  // labelled `labels` (`a="b",...`, may be empty), its values so scaled.
  uint32_t Add(uint32_t family, Scale scale, std::string_view labels);
  // One series of each of `list`, the report's families `first`,
  // `first` + 1, ..., labelled `labels` and the family's extra: the first
  // one's id.
  uint32_t Add(std::span<const FieldFamily> list, uint32_t first, const std::string& labels);
  // Series `id`'s value in this sample; ids first..first+n-1 of one block
  // follow each other.
  void Put(uint32_t id, uint64_t value) { (*row_)[1 + id] = value; }
  void Put(uint32_t first, std::span<const uint64_t> values);

 private:
  friend class MetricCatalog;
  MetricRow(const RecordingInfo& info, const DiskFilter* disk_only)
      : info_(info), disk_only_(disk_only) {}

  const RecordingInfo& info_;
  const DiskFilter* disk_only_;
  class MetricCatalog* catalog_ = nullptr;
  uint32_t family_base_ = 0;  // the report's first family
  std::unordered_map<std::string, uint32_t>* blocks_ = nullptr;
  std::vector<uint64_t>* row_ = nullptr;
};

class MetricCatalog {
 public:
  // `common_labels`: `name="value",...` added to every series (may be
  // empty). `disk_only`, if set, keeps the disks whose name matches.
  MetricCatalog(const RecordingInfo& info, std::string common_labels,
                const DiskFilter* disk_only);

  // row[0] is left to the caller; row[1 + id] = the raw counter of series
  // `id`, or ColumnSpool::kAbsent. Series first seen here are created.
  void FillRow(const RawSample& s, std::vector<uint64_t>& row);

  const std::vector<MetricFamily>& families() const { return families_; }
  // The families a report's slot declares, appended to `out`.
  static void Declare(const MetricsSlot& slot, std::vector<MetricFamily>& out);
  const MetricSeries& series(uint32_t id) const { return series_[id]; }
  size_t series_count() const { return series_.size(); }

 private:
  friend class MetricRow;
  uint32_t Add(uint32_t family, Scale scale, std::string_view labels);

  std::string common_;
  std::vector<MetricFamily> families_;
  std::vector<MetricSeries> series_;
  std::vector<uint32_t> family_bases_;  // per report
  std::vector<std::unordered_map<std::string, uint32_t>> blocks_;  // per report
  MetricRow row_;
};

}  // namespace pm
