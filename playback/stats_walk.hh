// summary --stats's walk over a recording's items, beside PhaseWalk
// (phases.hh): every pair of consecutive samples into the whole span's
// statistics and, with `split`, into its phase's (the pair ending at a
// mark's sample is the phase's that the mark ends). No pair spans a pause,
// and a sample not later than the one before (by the monotonic clock)
// starts anew.
#pragma once

#include <string>
#include <vector>

#include "playback/raw_sample.hh"
#include "playback/report.hh"
#include "playback/span_stats.hh"

namespace pm {

class StatsWalk {
 public:
  // `options` must outlive the walk. `keep_batches`: every span keeps its
  // series' values as batch means (SpanStats::KeepBatches).
  StatsWalk(bool split, const ReportOptions& options, bool keep_batches = false);
  void OnSample(const RawSample& s);
  void OnEvent(const RecordingEvent& e);  // pause, resume, mark; others ignored

  const SpanStats& whole() const { return whole_; }
  const std::vector<SpanStats>& phases() const { return phases_; }  // as PhaseWalk's
  // Each phase's label: "start", then its mark's.
  const std::vector<std::string>& labels() const { return labels_; }

 private:
  void Origin(TimeOrigin o);
  void First(const RawSample& s);
  void NewPhase(const std::string& label);

  bool split_;
  const ReportOptions& options_;
  SpanStats whole_;
  std::vector<SpanStats> phases_;
  std::vector<std::string> labels_;
  bool keep_batches_;
  RawSample prev_;
  bool have_prev_ = false;
  bool have_origin_ = false;
};

}  // namespace pm
