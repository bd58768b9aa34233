// `perfmonger diff`'s reading: one recording into its phases' statistics
// (summary --stats's series, every collector's, per phase), through the
// readers' RecordingInput. Phases are split at marks, or, for --align
// time, at the instants (after the first sample, by the monotonic clock)
// where the first run's marks were: each run is cut at the first sample
// at or after each instant, and its own marks are ignored.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "playback/statistics/diff_table.hh"

namespace pm {

struct TimeCut {
  int64_t after_ns = 0;  // after the run's first sample
  std::string label;
};

struct RunReading {
  bool keep_batches = false;             // the within-run test needs the series
  const std::vector<TimeCut>* cuts = nullptr;  // --align time; null: at marks
  std::vector<TimeCut>* marks = nullptr; // filled with the run's marks, if given
};

// Throws InputError (unreadable), FormatError (corrupt), UsageError (empty
// or without samples). `damaged` is set when lines were lost to damage
// (diff then exits 2, after its output).
// `before_messages`, if given, is called before the file's warnings are
// printed (ReadRuns keeps them in the files' order).
RunStats ReadRun(const std::string& path, const RunReading& how, bool& damaged,
                 const std::function<void()>& before_messages = {});

// ReadRun of each file, in their order, on up to `threads` threads (each
// reading its own files: a run's walk is most of diff's time). The first
// file's error, in the files' order, is thrown after every thread ended;
// the files' warnings come in their order too.
std::vector<RunStats> ReadRuns(const std::vector<std::string>& paths, const RunReading& how,
                               bool& damaged, unsigned threads);

}  // namespace pm
