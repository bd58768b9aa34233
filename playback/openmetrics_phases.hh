// perfmonger_phase_info{phase,state}: where a recording is, as a gauge. The
// phase is the label of the last mark ("start" before any, as `summary
// --phases` names it); the state is "recording" or "paused". The series of
// the current phase and state is 1 at every sample and at the instant it
// begins, and 0 at the instant it ends (a mark, a pause, a resume), so
// `perfmonger_phase_info{phase="q42"} == 1` selects the phase in PromQL.
//
// Events are spooled to an unnamed temporary file (with the number of
// samples before each, so the replay keeps the file's order) and replayed
// once per series, which keeps each series contiguous as OpenMetrics
// requires; memory holds only the distinct (phase, state) pairs.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "playback/column_spool.hh"
#include "playback/raw_sample.hh"

namespace pm {

struct PhaseKey {
  std::string phase = "start";
  bool paused = false;
};

// The walk: what each sample and event means for the phase series.
class PhaseTracker {
 public:
  using Emit = std::function<void(const PhaseKey& key, int64_t t_ms, int value)>;
  void Sample(int64_t t_ms, const Emit& emit) const;
  // pause, resume, mark (`label`); anything else is ignored.
  void Event(std::string_view kind, std::string_view label, int64_t t_ms, const Emit& emit);

 private:
  PhaseKey cur_;
};

class PhaseSeries {
 public:
  explicit PhaseSeries(const std::string& spool_dir);
  ~PhaseSeries();

  // In file order; `samples_before` is the count of samples kept so far.
  void Sample(int64_t t_ms);
  void Event(const RecordingEvent& e, int64_t t_ms, uint64_t samples_before);

  // The family (metadata and every series), appending to `out` and calling
  // `drain` whenever `out` has grown; column 0 of `spool` holds the times
  // (ms) of the samples kept.
  void Write(std::string& out, const ColumnSpool& spool, const std::string& common_labels,
             const std::function<void()>& drain);

 private:
  struct Record;
  void Register(const PhaseKey& key);
  bool ReadRecord(Record& r);
  void WriteOne(std::string& out, const ColumnSpool& spool, const PhaseKey& key,
                const std::string& prefix, const std::function<void()>& drain);

  PhaseTracker tracker_;
  std::unique_ptr<FILE, int (*)(FILE*)> events_;
  std::vector<PhaseKey> keys_;  // in order of appearance
  std::unordered_set<std::string> seen_;
};

}  // namespace pm
