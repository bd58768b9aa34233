#include "playback/outputs/csv_keys.hh"

#include <algorithm>
#include <array>

#include "playback/outputs/export_csv.hh"

namespace pm {
namespace {

constexpr std::array<std::string_view, 3> kNames = {"host", "run", "phase"};

std::string Field(std::string_view value) {
  std::string out;
  AppendCsvField(out, value);
  return out;
}

}  // namespace

std::optional<CsvKey> CsvKeyNamed(std::string_view name) {
  auto it = std::find(kNames.begin(), kNames.end(), name);
  if (it == kNames.end()) return std::nullopt;
  return static_cast<CsvKey>(it - kNames.begin());
}

CsvKeys::CsvKeys(std::vector<CsvKey> columns, const RecordingInfo& info,
                 std::string_view run_key)
    : columns_(std::move(columns)), host_(Field(info.host)) {
  auto meta = std::find_if(info.meta.begin(), info.meta.end(),
                           [&](const auto& m) { return m.first == run_key; });
  if (meta != info.meta.end()) run_ = Field(meta->second);
  lacks_run_ = meta == info.meta.end() &&
               std::find(columns_.begin(), columns_.end(), CsvKey::kRun) != columns_.end();
}

void CsvKeys::OnEvent(const RecordingEvent& event) {
  if (event.kind == "mark") phase_ = Field(event.label);
}

void CsvKeys::AppendNames(std::string& out) const {
  for (CsvKey k : columns_) out.append(kNames[static_cast<size_t>(k)]).push_back(',');
}

void CsvKeys::AppendCells(std::string& out) const {
  for (CsvKey k : columns_) {
    out.append(k == CsvKey::kHost ? host_ : k == CsvKey::kRun ? run_ : phase_);
    out.push_back(',');
  }
}

}  // namespace pm
