#include "playback/outputs/openmetrics_catalog.hh"

#include "playback/outputs/column_spool.hh"
#include "playback/reports/report.hh"
#include "playback/reports/reports.hh"

namespace pm {

uint32_t MetricRow::Add(uint32_t family, Scale scale, std::string_view labels) {
  return catalog_->Add(family_base_ + family, scale, labels);
}

uint32_t MetricRow::Add(std::span<const FieldFamily> list, uint32_t first,
                        const std::string& labels) {
  uint32_t id = 0;
  for (uint32_t f = 0; f < list.size(); ++f) {
    uint32_t s = Add(first + f, list[f].scale, labels + list[f].extra);
    if (f == 0) id = s;
  }
  return id;
}

void MetricFamilies::Declare(std::span<const FieldFamily> list) {
  for (const FieldFamily& f : list) {
    if (f.counter) Counter(f.name, f.unit, f.help);
    else Gauge(f.name, f.unit, f.help);
  }
}

void MetricRow::Put(uint32_t first, std::span<const uint64_t> values) {
  for (size_t k = 0; k < values.size(); ++k) Put(first + static_cast<uint32_t>(k), values[k]);
}

MetricCatalog::MetricCatalog(const RecordingInfo& info, std::string common_labels,
                             const DiskFilter* disk_only)
    : common_(std::move(common_labels)), row_(info, disk_only) {
  row_.catalog_ = this;
  std::span<const ReportEntry> reports = Reports();
  blocks_.resize(reports.size());
  for (size_t i = 0; i < reports.size(); ++i) {
    family_bases_.push_back(static_cast<uint32_t>(families_.size()));
    if (const MetricsSlot* slot = reports[i].report->openmetrics) Declare(*slot, families_);
  }
}

void MetricCatalog::Declare(const MetricsSlot& slot, std::vector<MetricFamily>& out) {
  MetricFamilies families(out);
  slot.families(families);
}

uint32_t MetricCatalog::Add(uint32_t family, Scale scale, std::string_view labels) {
  std::string text;
  if (!labels.empty() || !common_.empty()) {
    text.assign("{").append(labels);
    if (!labels.empty() && !common_.empty()) text.push_back(',');
    text += common_ + "}";
  }
  auto id = static_cast<uint32_t>(series_.size());
  series_.push_back({family, scale, std::move(text)});
  families_[family].series.push_back(id);
  row_.row_->resize(1 + series_.size(), ColumnSpool::kAbsent);
  return id;
}

void MetricCatalog::FillRow(const RawSample& s, std::vector<uint64_t>& row) {
  row.assign(1 + series_.size(), ColumnSpool::kAbsent);
  row_.row_ = &row;
  std::span<const ReportEntry> reports = Reports();
  for (size_t i = 0; i < reports.size(); ++i) {
    const MetricsSlot* slot = reports[i].report->openmetrics;
    if (slot == nullptr) continue;
    row_.family_base_ = family_bases_[i];
    row_.blocks_ = &blocks_[i];
    slot->series(row_, s);
  }
  row_.row_ = nullptr;
}

}  // namespace pm
