// `play --format columns`: play's rates as binary columns, for programs
// that want numbers rather than text (the Python package's read(), which
// maps them with numpy.frombuffer). The columns are the CSV export's,
// named and ordered as its header (playback/outputs/export_csv.hh:
// `time`, `elapsed_time`, then JSON paths), with the same values: each
// cell is the double its CSV text reads as (CsvExport::AppendValues,
// without the text), so a value equals the one play's JSON prints. There
// is one implementation of which columns exist.
//
// Layout (man/perfmonger-play.1, FORMAT COLUMNS): one JSON line
//   {"format":"perfmonger-columns","version":1,"dtype":"<f8","rows":N,
//    "columns":[NAMES],"host":H,"meta":{K:V},"events":[EVENT LINES]
//    ,"event_rows":[R] [,"first":{"time":T,"elapsed_time":E}]}
// padded with spaces to a multiple of 64 bytes (newline included), then,
// for each column in order, N IEEE 754 doubles, little-endian; an empty
// CSV cell (a device or process absent from that line) is NaN. In a file
// the arrays start 64-byte aligned: numpy.memmap maps them in place.
// The events are play --events' lines (marks, pauses, resumes), and
// event_rows[i] the number of rows before event i (a reader of the file
// cuts a phase at its mark's row, which the rows' millisecond times
// cannot place when two samples share a millisecond); "first"
// is the first row's earlier sample (where a window starts: its elapsed
// time counts from the recording's origin), when there is a row.
//
// Rows are spooled column-wise to an unnamed file in `spool_dir`
// (column_spool.hh) until the end, when the row count is known: memory
// stays flat on any length; disk takes 8 bytes per row and column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "playback/outputs/column_spool.hh"
#include "playback/outputs/export_csv.hh"
#include "playback/reading/raw_sample.hh"

namespace pm {

class ColumnsExport {
 public:
  explicit ColumnsExport(const std::string& spool_dir);

  void AppendRow(const Pair& pair);
  // One event as play --events writes it (a JSON object, no newline),
  // after the rows that came before it.
  void AddEvent(std::string_view event_json) {
    events_.emplace_back(event_json);
    event_rows_.push_back(spool_.rows());
  }
  // After the last row: the header line.
  std::string Header(const RecordingInfo& info);
  // After it, the columns: through `write` (called with pieces of at most
  // a few MiB), or copied by the kernel into the file `fd` from the spool
  // (ColumnSpool::CopyColumn; false, having written nothing, when the
  // kernel cannot, and then through `write`).
  template <class Write>
  void WriteColumns(Write&& write) const;
  bool CopyColumns(int fd) const;
  bool left_out() const { return csv_.left_out(); }

 private:
  // Column `col` as little-endian doubles into `out` (appended).
  bool AppendColumn(ColumnSpool::Cursor& cursor, std::string& out, size_t max) const;

  CsvExport csv_;
  ColumnSpool spool_;
  std::vector<uint64_t> row_;   // one row's cells as doubles' bits
  std::vector<std::string> events_;
  std::vector<uint64_t> event_rows_;  // rows before each event
  std::string first_;  // "first"'s object, once a row came
};

template <class Write>
void ColumnsExport::WriteColumns(Write&& write) const {
  std::string out;
  for (size_t c = 0; c < row_.size(); ++c) {
    ColumnSpool::Cursor cursor(spool_, c);
    while (AppendColumn(cursor, out, 4 << 20)) {
      write(std::string_view(out));
      out.clear();
    }
  }
  write(std::string_view(out));
}

}  // namespace pm
