// perfmonger_phase_info{phase,state}: where a recording is, as a gauge. The
// phase is the label of the last mark ("start" before any, as `summary
// --phases` names it); the state is "recording" or "paused". The series of
// the current phase and state is 1 at every sample and at the instant it
// begins, and 0 at the instant it ends (a mark, a pause, a resume), so
// `perfmonger_phase_info{phase="q42"} == 1` selects the phase in PromQL.
//
// OpenMetrics wants each series contiguous, while a recording's points
// come in time order across series: they go through a SeriesSpool
// (series_spool.hh). Linear in samples and marks (a replay per series was
// quadratic: 20,000 marks took 45 s); memory holds the distinct (phase,
// state) pairs and their counts, the files 16 bytes per point.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "playback/reading/raw_sample.hh"
#include "playback/outputs/series_spool.hh"

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

  // In file order: each sample kept, each event.
  void Sample(int64_t t_ms);
  void Event(const RecordingEvent& e, int64_t t_ms);

  // The family (metadata and every series), appending to `out` and calling
  // `drain` whenever `out` has grown.
  void Write(std::string& out, const std::string& common_labels,
             const std::function<void()>& drain);

 private:
  struct Point {  // of series `id` (an index into keys_)
    int64_t t_ms;
    uint32_t id;
    int32_t value;
  };
  void Spool(const PhaseKey& key, int64_t t_ms, int value);
  void WriteOne(std::string& out, std::span<const Point> points, const std::string& prefix,
                const std::function<void()>& drain);

  PhaseTracker tracker_;
  SeriesSpool<Point> points_;
  std::vector<PhaseKey> keys_;                    // in order of appearance
  std::unordered_map<std::string, uint32_t> ids_;  // a key's index in keys_
};

}  // namespace pm
