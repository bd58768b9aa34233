// The leading columns of `play --format csv --columns host,run,phase`:
// what tells apart the rows of many recordings read as one table
// (pandas.concat of the files, DuckDB's read_csv over all of them).
//   host   the recording's host, from its header
//   run    the value of one --meta key (--run-key, default "run"); an
//          empty cell when the recording has no such key
//   phase  the label of the last mark before the row's later sample
//          ("start" before the first mark), as summary --phases splits
// Each is written in the order given, before `time`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playback/reading/raw_sample.hh"

namespace pm {

enum class CsvKey { kHost, kRun, kPhase };

// "host", "run" or "phase" as a column; nullopt for another name.
std::optional<CsvKey> CsvKeyNamed(std::string_view name);

class CsvKeys {
 public:
  CsvKeys() = default;  // no leading column
  CsvKeys(std::vector<CsvKey> columns, const RecordingInfo& info, std::string_view run_key);

  // Marks move the phase: the rows after a mark are its phase's (a mark
  // comes after the sample taken at its instant, which ends the phase
  // before).
  void OnEvent(const RecordingEvent& event);

  // `host,run,phase,` and `db1,7,q1,`: each field RFC 4180 quoted when needed.
  void AppendNames(std::string& out) const;
  void AppendCells(std::string& out) const;

  // A run column asked for, and the recording has no such meta key.
  bool lacks_run() const { return lacks_run_; }

 private:
  std::vector<CsvKey> columns_;
  bool lacks_run_ = false;
  std::string host_;   // as CSV fields
  std::string run_;
  std::string phase_ = "start";
};

}  // namespace pm
