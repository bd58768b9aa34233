// `play --format csv`: play's rates as one CSV table (RFC 4180: comma
// separated, CRLF line ends, a field quoted when it holds a comma, a quote
// or a line break, quotes doubled), for spreadsheets and pandas.
//
// One header row, then one row per play line with the same numbers in the
// same formats. Columns are `time`, `elapsed_time`, then each report's
// (playback/reports/report.hh, its `csv` slot) in kCollectors order, named by
// the JSON paths of play's values: `cpu.all.usr`, `cpu.cores.0.usr`,
// `intr.core_dev_intr.0`, `disk.sda.riops`, `disk.total.qlen`,
// `net.eth0.rxkbyteps`, `mem.mem_free`, `pressure.cpu.some`, ... (each
// collector's man page lists its own). The columns are those of the first
// line: a row missing from a later line leaves its cells empty, one that
// appears later is left out (see left_out()). The keys of
// playback/outputs/csv_keys.hh, when given, come first.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playback/reports/report.hh"

namespace pm {

// What a report's csv slot writes for one pair: groups of columns, each
// named `A.B.FIELD` (or `A.FIELD` when B is empty), and their cells in
// order. A group the first line lacked is left out; cells missing from a
// group are left empty.
class CsvRow {
 public:
  void Group(std::string_view a, std::string_view b, std::span<const std::string_view> fields);
  // Fields "0", "1", ..., "count-1" (one per CPU).
  void Indexed(std::string_view a, std::string_view b, size_t count);
  void Fixed(double v, int digits);
  void Int(int64_t v);

 private:
  friend class CsvExport;
  struct Columns {
    std::string path;  // A.B
    size_t width;
  };
  bool Begin(std::string_view a, std::string_view b, size_t width);
  void EndGroup();
  // A row of text, or of numbers (`values`): each cell the bits of the
  // double its text reads as (FixedValue), an empty cell a quiet NaN.
  void Start(std::string* out, std::vector<uint64_t>* values, bool header);
  void Skip(size_t cells);  // empty cells
  void Finish();
  bool Cell();  // a cell of the group may be written (and is counted)
  char* Room(size_t bytes);  // where `bytes` more fit in cells_
  void Flush();              // cells_ onto the line

  std::vector<Columns> groups_;       // the first line's
  std::vector<std::string> names_;    // its column names
  std::string* out_ = nullptr;
  std::vector<uint64_t>* values_ = nullptr;  // instead of out_: numbers
  bool header_ = false;               // the first line: groups are being learned
  size_t next_ = 0;                   // the group to match next
  size_t left_ = 0;                   // cells the current group still takes
  bool active_ = false;
  bool left_out_ = false;
  size_t used_ = 0;       // bytes of cells_ not yet on the line
  char cells_[2048];
};

class CsvKeys;

class CsvExport {
 public:
  // `keys` (the leading columns, if any) must outlive the export.
  explicit CsvExport(const CsvKeys* keys = nullptr) : keys_(keys) {}
  // The header first (before the first row), then the row, each ending CRLF.
  void AppendRow(std::string& out, const Pair& pair);
  // The same row as numbers (CsvRow::Start with values), appended to `out`:
  // time, elapsed_time, then a value per name (the keys are not numbers
  // and are left out).
  void AppendValues(std::vector<uint64_t>& out, const Pair& pair);
  bool left_out() const { return row_.left_out_; }
  // The reports' column names (after `time,elapsed_time`), once a row is in.
  const std::vector<std::string>& names() const { return row_.names_; }

 private:
  void Reports(const Pair& pair);  // every report's cells, then the row's end

  const CsvKeys* keys_;
  bool started_ = false;
  CsvRow row_;
  std::string first_;  // the first row's cells, written after the header
};

// Whether a spreadsheet would take a cell of this text for a formula (or,
// after a TAB or CR it skips, for one): it starts with = + - @ TAB or CR.
bool StartsFormula(std::string_view field);

// An RFC 4180 field: as is, or quoted with its quotes doubled. Text that
// StartsFormula() gets a leading ' (OWASP's advice against CSV injection):
// a spreadsheet shows it as text and never runs it. Every string cell from
// a recording (host, run, phase; the header's column names) comes here;
// numbers, written by CsvRow, never do.
void AppendCsvField(std::string& out, std::string_view field);

}  // namespace pm
