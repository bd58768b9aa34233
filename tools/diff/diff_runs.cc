#include "tools/diff/diff_runs.hh"

#include "common/error.hh"
#include "playback/statistics/stats_walk.hh"
#include "tools/readers/recording_input.hh"

namespace pm {
namespace {

int64_t Instant(int64_t mono_ns, int64_t time_ns) { return mono_ns > 0 ? mono_ns : time_ns; }

// Feeds a run's items to the walk, cutting phases as `how` says.
class RunFeed {
 public:
  RunFeed(StatsWalk& walk, const RunReading& how) : walk_(walk), how_(how) {}

  void Sample(const RawSample& s) {
    const int64_t t = Instant(s.mono_ns, s.time_ns);
    if (origin_ < 0) origin_ = t;
    walk_.OnSample(s);
    while (how_.cuts && next_ < how_.cuts->size() &&
           t - origin_ >= (*how_.cuts)[next_].after_ns) {
      RecordingEvent mark;
      mark.kind = "mark";
      mark.label = (*how_.cuts)[next_++].label;
      mark.time_ns = s.time_ns;
      mark.mono_ns = s.mono_ns;
      walk_.OnEvent(mark);
    }
  }

  void Event(const RecordingEvent& e) {
    if (e.kind == "mark") {
      if (how_.cuts) return;  // cut by time instead
      if (how_.marks && origin_ >= 0)
        how_.marks->push_back({Instant(e.mono_ns, e.time_ns) - origin_, e.label});
    }
    walk_.OnEvent(e);
  }

 private:
  StatsWalk& walk_;
  const RunReading& how_;
  int64_t origin_ = -1;
  size_t next_ = 0;
};

}  // namespace

RunStats ReadRun(const std::string& path, const RunReading& how, bool& damaged) {
  RecordingInput input(path);
  if (!input.Open()) throw UsageError(input.name() + " is empty: nothing to compare");
  ReportOptions options;
  options.all = true;
  options.legacy = input.info().legacy();
  options.recorded = &input.info().recorded;
  options.info = &input.info();
  StatsWalk walk({.split = true, .keep_batches = how.keep_batches, .whole = false}, options);
  RunFeed feed(walk, how);
  RawSample sample;
  RecordingEvent event;
  using Item = RecordingReader::Item;
  for (Item item; (item = input.Next(sample, event)) != Item::kEnd;) {
    if (item == Item::kSample) feed.Sample(sample);
    else feed.Event(event);
  }
  input.Finish();
  damaged = damaged || input.damaged();
  uint64_t intervals = 0;
  for (const SpanStats& phase : walk.phases()) intervals += phase.intervals();
  if (intervals == 0)
    throw UsageError(input.name() + " has fewer than two samples: nothing to compare");
  RunStats run{path, {}};
  for (size_t i = 0; i < walk.phases().size(); ++i)
    run.phases.push_back({walk.labels()[i], walk.phases()[i].Results()});
  return run;
}

}  // namespace pm
