// summary --stats's walk over a recording's items, beside PhaseWalk
// (phases.hh): every pair of consecutive samples into the whole span's
// statistics and, with `split`, into its phase's (the pair ending at a
// mark's sample is the phase's that the mark ends). No pair spans a pause,
// and a sample not later than the one before (by the monotonic clock)
// starts anew.
//
// On the sampling grid (`grid`, summary --stats-grid), the samples a mark
// or the stop took between two ticks, and the closing sample of a pause,
// are left out: each interval is one tick of the recording's schedule, as
// sar's intervals are, so a peak compares with theirs. An interval a mark
// cut in two then belongs to the phase the mark opens. Samples the `sample`
// command took cannot be told from ticks and stay.
//
// With `use` (summary --use), the same pairs go through a UseSpan per span
// as well (playback/statistics/use_span.hh).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "playback/reading/raw_sample.hh"
#include "playback/statistics/kept_sample.hh"
#include "playback/reports/report.hh"
#include "playback/statistics/span_stats.hh"
#include "playback/statistics/use_span.hh"

namespace pm {

struct StatsWalkOptions {
  bool split = false;         // per phase too
  bool grid = false;          // on the sampling grid (--stats-grid)
  bool keep_batches = false;  // every span keeps batch means (SpanStats::KeepBatches)
  bool whole = true;          // the whole span too (diff needs the phases alone)
  const UseThresholds* use = nullptr;  // summary --use: a UseSpan per span too
  int num_core = 0;                    // the recording's, for --use
};

class StatsWalk {
 public:
  // `options` must outlive the walk.
  StatsWalk(StatsWalkOptions how, const ReportOptions& options);
  // "max at" counts from `o` (RecordingInput::origin: also in a window,
  // the recording's); before the first item. Without it, from the first
  // sample or pause, resume or mark.
  void SetOrigin(TimeOrigin o);
  void OnSample(const RawSample& s);
  void OnEvent(const RecordingEvent& e);  // pause, resume, mark, end; others ignored
  // After the last item: on the grid, the last sample of a recording
  // without its trailer (a tick: its recorder was killed) is taken.
  void Finish();

  const SpanStats& whole() const { return whole_; }  // empty without how.whole
  const std::vector<SpanStats>& phases() const { return phases_; }  // as PhaseWalk's
  // Each phase's label: "start", then its mark's.
  const std::vector<std::string>& labels() const { return labels_; }
  // With `use`: the whole span's and the phases' USE (else empty).
  const std::vector<UseSpan>& use() const { return use_; }
  const std::vector<UseSpan>& use_phases() const { return use_phases_; }

 private:
  void Take(const RawSample& s);
  void Drop();
  void First(const RawSample& s);
  void NewPhase(const std::string& label);

  const StatsWalkOptions how_;
  const ReportOptions& options_;
  SpanStats whole_;
  std::vector<SpanStats> phases_;
  std::vector<std::string> labels_;
  std::vector<UseSpan> use_, use_phases_;  // use_: the whole's, when asked
  KeptSample prev_;
  bool have_prev_ = false;
  bool have_origin_ = false;
  std::optional<RawSample> held_;  // on the grid: the last sample, until the next item
};

}  // namespace pm
