// `perfmonger summary`: PerfMonger's summarizer as pure functions of the
// first and last samples of a recording. Rates between those two are exact
// averages of the cumulative counters, so nothing in between is needed.
#pragma once

#include <optional>
#include <string>

#include "playback/reports/clock_report.hh"
#include "playback/reports/disk_filter.hh"
#include "proto/pgr_format.hh"
#include "playback/reading/raw_sample.hh"

namespace pm {

class SpanStats;
class UseSpan;
struct SpanVerdict;

struct SummaryInput {
  std::string title_file;            // named in the title line; "" = none
  const RawSample* first = nullptr;  // both required, may be the same
  const RawSample* last = nullptr;   // with pauses: ActiveSpan::ActiveEnd()
  MetaList meta;                     // from the header, decoded
  bool all = false;                  // --all: network and memory blocks too
  const DiskFilter* disk_only = nullptr;
  bool legacy = false;               // RecordingInfo::legacy(): PerfMonger's blocks only
  // RecordingInfo::recorded (empty: everything): the lines of values never
  // recorded are left out.
  std::vector<std::vector<bool>> recorded = {};
  bool Recorded(size_t member, size_t field) const {
    if (member >= recorded.size() || recorded[member].empty()) return true;
    return field < recorded[member].size() && recorded[member][field];
  }
  const ClockHistory* clock = nullptr;  // the clock's states, if recorded
  const RecordingInfo* info = nullptr;  // the header (ReportOptions::info)
  // summary --stats: the span's statistics (span_stats.hh), after the
  // reports' blocks (JSON: "stats" after theirs); null: none.
  const SpanStats* stats = nullptr;
  // summary --use: the span's USE (use_output.hh), before the statistics
  // (JSON: "use"); null: none.
  const UseSpan* use = nullptr;
  // Everyone else and the verdict (phase_cost.hh), after the reports'
  // blocks; null: none (a recording without scans).
  const SpanVerdict* verdict = nullptr;
};

// What pauses and marks add (default: nothing, PerfMonger's output).
struct SummaryPauses {
  bool has_pauses = false;           // print the paused time
  int64_t paused_ns = 0;
  std::optional<std::string> phase;  // summary --phases: the phase's label
};

// With pauses, `first`..`last` is the active time (gaps taken out): the
// "Duration" is the active seconds, the rates its averages, and a line
// "Paused: %.3f sec" follows "Duration" (JSON: "paused_time" after
// "exectime"); without pauses neither appears. A phase is titled
//   == performance summary of 'FILE', phase 'LABEL' ==
// and its JSON object starts with "phase":LABEL.
//
// The text report: PerfMonger's layout byte for byte (title, Duration, CPU,
// one block per disk, sorted, then "total" when there is more than one),
// then, ours:
//   * Average NETWORK usage: IF     with `all`, per interface (KB/s, /s)
//   * Memory usage (last sample)    with `all`, kB as in /proc/meminfo (a
//                                   value the recording lacks is left out)
//   Clock:                          when the recording has the clock's
//     at start: STATE               state (playback/reports/clock_report.hh)
//       at end: STATE
//   * USE: ...                      with `use` (summary --use):
//                                   use_output.hh's block and verdict
//   * Statistics over N intervals   with `stats` (summary --stats):
//                                   span_stats.hh's block
//   Metadata:                       last, when meta is non-empty, in header
//     key: value                    order (control bytes escaped C-style)
// Every block ends with a blank line. Rate blocks are left out when the
// last sample is not later than the first (a single-sample recording).
// When no clock tick passed between the two samples (a pause right after
// the start, both samples in one tick), every CPU figure of a PerfMonger
// recording is 0.00, the "Non-idle usage" included: nothing was measured.
// A native recording's CPU block says "not measured" instead, marks the
// numbers of a span shorter than its CPU time's resolution, and ends with
// a line naming the CPU time's source (playback/reports/cpu_report.hh).
std::string SummaryText(const SummaryInput& in, const SummaryPauses& p = {});

// One line, "\n" included:
//   {"exectime":%.3f,"cpu":..,"intr":..,"disk":..,"net":..,"mem":..,"meta":..}
// cpu..net as `play` writes them (present when recorded); "mem" is the
// last sample's values (memory is a level, not a counter: an average of
// two samples means nothing); "clock" {"start":..,"end":..} when recorded;
// "meta" an object of strings, when non-empty.
std::string SummaryJson(const SummaryInput& in, const SummaryPauses& p = {});

}  // namespace pm
