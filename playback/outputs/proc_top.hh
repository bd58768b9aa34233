// summary --top N: the busiest processes of a recording made with
// --record-procs, by CPU and by I/O, over the whole recording and, with
// --phases, over each phase (the "procs" lines between its marks: the
// line of a mark's sample, written before it, is the phase's that the mark
// ends).
// Processes are told apart by pid and start time; each one's figures are
// the sums of its rows. Memory grows with the processes that ran, not with
// the recording's length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "playback/reading/proc_table_event.hh"
#include "playback/reading/raw_sample.hh"

namespace pm {

struct ProcTotal {
  ProcTableRow last;  // its identity, as its last row gave it
  uint64_t cpu_ns = 0, utime_us = 0, stime_us = 0, run_wait_ns = 0;
  uint64_t read_bytes = 0, write_bytes = 0;
  bool io = false;  // some row had its I/O (root, or the recorder's own)
  uint64_t io_bytes() const { return read_bytes + write_bytes; }
};

struct ProcTable {
  std::string label;  // the phase's ("start" for the first)
  std::map<std::pair<uint32_t, uint64_t>, ProcTotal> procs;  // by pid, start
  int64_t first_since = 0, last_mono = 0;  // the time its lines cover
  uint64_t lines = 0, brief_utime_us = 0, brief_stime_us = 0;

  void Add(const ProcTableEvent& e, int64_t mono_ns);
  // The `n` busiest by `key`, busiest first (ties: lower pid first).
  std::vector<const ProcTotal*> Top(size_t n, uint64_t (*key)(const ProcTotal&)) const;
  double covered_s() const { return static_cast<double>(last_mono - first_since) / 1e9; }
};

class ProcTop {
 public:
  explicit ProcTop(bool split) : split_(split) {
    if (split) phases_.emplace_back().label = "start";
  }
  void OnEvent(const RecordingEvent& e);  // procs and mark; others ignored
  const ProcTable& whole() const { return whole_; }
  const std::vector<ProcTable>& phases() const { return phases_; }

 private:
  bool split_;
  ProcTable whole_;
  std::vector<ProcTable> phases_;
};

// The text block: the `n` busiest by CPU, then by I/O, and the brief
// processes' CPU; a line saying so for a table without procs lines.
std::string ProcTopText(const ProcTable& t, size_t n);
// `"top":{"cpu":[...],"io":[...],"brief":{...},"covered_time":S}`.
std::string ProcTopJson(const ProcTable& t, size_t n);

}  // namespace pm
