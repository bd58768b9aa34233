// `live`'s reading side: the recorder's lines in, as RecordingObserver
// hands them over, and `play` lines out, through the same reader and rates
// as `play` (so the daemon never links the readers).
//
// The reader pulls from a stream fed a line at a time: Push() asks it for
// exactly one item per complete line fed, so it never reads past what has
// been written (where the feed would look like the end of the recording).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "playback/reading/raw_sample.hh"
#include "playback/reports/report.hh"
#include "playback/reading/recording_reader.hh"

namespace pm {

class TableScreen;

class LivePlay {
 public:
  LivePlay(bool pretty, bool color);
  // Rows of `table` (which outlives this) instead of JSON lines.
  explicit LivePlay(TableScreen& table);
  ~LivePlay();

  // `lines`: complete lines, the header first. Appends one play line
  // ("\n"-terminated) to `out` per sample pair they complete; no pair spans
  // a pause. With --record-procs, a play line carries its process table,
// as play's do, and the table its busiest processes.
  // Throws FormatError if the lines are not a recording.
  void Push(std::string_view lines, std::string& out);

 private:
  class Feed;
  void OnEvent(const RecordingEvent& event);
  void OnSample(const RawSample& cur, std::string& out);
  void OnPair(const Pair& pair, const ProcTableEvent* procs, std::string& out);

  bool pretty_ = false;
  bool color_ = false;
  TableScreen* table_ = nullptr;
  std::unique_ptr<Feed> feed_;
  std::unique_ptr<RecordingReader> reader_;  // from the header on
  RawSample samples_[2];  // the previous and the current, by turns
  int cur_ = 0;
  bool have_prev_ = false;
  bool have_first_ = false;
  TimeOrigin origin_;
  RecordingEvent procs_;  // the last "procs" line (record --record-procs)
  std::string line_;
};

}  // namespace pm
