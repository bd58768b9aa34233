#include "playback/outputs/export_csv.hh"

#include <array>
#include <bit>
#include <limits>
#include <string_view>

#include "playback/outputs/csv_keys.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/reports.hh"
#include "proto/json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

constexpr double kNoCell = std::numeric_limits<double>::quiet_NaN();

// `path` is "a.b" (or "a" when b is empty).
bool SamePath(std::string_view path, std::string_view a, std::string_view b) {
  if (b.empty()) return path == a;
  return path.size() == a.size() + 1 + b.size() && path.starts_with(a) &&
         path[a.size()] == '.' && path.ends_with(b);
}

}  // namespace

bool StartsFormula(std::string_view field) {
  return !field.empty() && std::string_view("=+-@\t\r").find(field[0]) != std::string_view::npos;
}

void AppendCsvField(std::string& out, std::string_view field) {
  const bool formula = StartsFormula(field);
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    if (formula) out.push_back('\'');
    out.append(field);
    return;
  }
  out.push_back('"');
  if (formula) out.push_back('\'');
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

// Into text (`out`) or numbers (`values`), the other null.
void CsvRow::Start(std::string* out, std::vector<uint64_t>* values, bool header) {
  out_ = out;
  values_ = values;
  header_ = header;
  next_ = 0;
  left_ = 0;
  active_ = false;
}

void CsvRow::Skip(size_t cells) {
  if (values_) values_->insert(values_->end(), cells, std::bit_cast<uint64_t>(kNoCell));
  else out_->append(cells, ',');
}

bool CsvRow::Begin(std::string_view a, std::string_view b, size_t width) {
  EndGroup();
  if (header_) {
    groups_.push_back({b.empty() ? std::string(a) : std::string(a) + "." + std::string(b), width});
    left_ = width;
    return active_ = true;
  }
  size_t g = next_;
  while (g < groups_.size() && !SamePath(groups_[g].path, a, b)) ++g;
  if (g == groups_.size()) {
    left_out_ = true;
    return active_ = false;
  }
  for (; next_ < g; ++next_) Skip(groups_[next_].width);
  left_ = groups_[next_++].width;
  return active_ = true;
}

void CsvRow::Group(std::string_view a, std::string_view b,
                   std::span<const std::string_view> fields) {
  if (!Begin(a, b, fields.size()) || !header_) return;
  for (std::string_view f : fields) names_.push_back(groups_.back().path + "." + std::string(f));
}

void CsvRow::Indexed(std::string_view a, std::string_view b, size_t count) {
  if (!Begin(a, b, count) || !header_) return;
  for (size_t i = 0; i < count; ++i)
    names_.push_back(groups_.back().path + "." + std::to_string(i));
}

inline bool CsvRow::Cell() {
  if (!active_ || left_ == 0) return false;
  --left_;
  return true;
}

// Cells gather in cells_ and reach the line a group at a time: a play
// line's hundred cells are the export's hot path, and an append per cell
// took half as much CPU again as the whole export.
inline char* CsvRow::Room(size_t bytes) {
  if (used_ + bytes > sizeof cells_) Flush();
  return cells_ + used_;
}

void CsvRow::Flush() {
  if (used_ == 0) return;
  out_->append(cells_, used_);
  used_ = 0;
}

void CsvRow::Fixed(double v, int digits) {
  if (!Cell()) return;
  if (values_) return values_->push_back(std::bit_cast<uint64_t>(FixedValue(v, digits)));
  char* p = Room(1 + kFixedTextMax);
  used_ = static_cast<size_t>(WriteFixed(Put(p, ','), v, digits) - cells_);
}

void CsvRow::Int(int64_t v) {
  if (!Cell()) return;
  if (values_) return values_->push_back(std::bit_cast<uint64_t>(static_cast<double>(v)));
  char* p = Room(1 + kUintTextMax);
  used_ = static_cast<size_t>(WriteInt(Put(p, ','), v) - cells_);
}

void CsvRow::EndGroup() {
  Flush();
  if (active_) Skip(left_);
  left_ = 0;
  active_ = false;
}

void CsvRow::Finish() {
  EndGroup();
  if (header_) return;
  for (; next_ < groups_.size(); ++next_) Skip(groups_[next_].width);
}

void CsvExport::AppendRow(std::string& out, const Pair& pair) {
  std::string& cells = started_ ? out : first_;
  if (keys_) keys_->AppendCells(cells);
  char times[2 * kFixedTextMax + 1];
  char* end = WriteFixed(Put(WriteFixed(times, pair.time, 3), ','), pair.elapsed_time, 3);
  AppendWritten(cells, times, end);
  row_.Start(&cells, nullptr, !started_);
  Reports(pair);
  cells.append("\r\n");
  if (started_) return;
  started_ = true;
  if (keys_) keys_->AppendNames(out);
  out.append("time,elapsed_time");
  for (const std::string& name : row_.names_) {
    out.push_back(',');
    AppendCsvField(out, name);
  }
  out.append("\r\n").append(first_);
  first_.clear();
}

void CsvExport::AppendValues(std::vector<uint64_t>& out, const Pair& pair) {
  out.push_back(std::bit_cast<uint64_t>(FixedValue(pair.time, 3)));
  out.push_back(std::bit_cast<uint64_t>(FixedValue(pair.elapsed_time, 3)));
  row_.Start(nullptr, &out, !started_);
  Reports(pair);
  started_ = true;
}

void CsvExport::Reports(const Pair& pair) {
  for (const ReportEntry& e : pm::Reports())
    if (e.report->csv) e.report->csv(row_, pair);
  row_.Finish();
}

}  // namespace pm
