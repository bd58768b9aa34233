// `summary --stats`: per series of every report's `stats` slot
// (playback/reports/stat_row.hh), over every pair of consecutive samples of a span
// (the whole recording, a window, a phase): mean, min, max and the instant
// of the max, p50, p95 and p99.
//
//   mean        Rate: Σ v·Δt / Σ Δt over the intervals (time-weighted: a
//               counter's mean rate equals the span's average, the
//               summary's own figure; CPU shares agree with it to the tick)
//               Level: the plain mean of the samples (sar's average row)
//   min, max    the smallest and largest value; the max's instant is the
//               end of its interval (a level: its sample), the first one
//               when the max repeats
//   p50 p95 p99 nearest rank, weighted: the smallest value such that the
//               values up to it cover p % of the time (a rate: each
//               interval weighs its length, so a short interval a mark
//               cut off counts for what it lasted) or of the samples (a
//               level); with equal intervals the ceil(p/100 · n)-th
//               smallest (so p99 of fewer than 100 values is the max);
//               exact up to QuantileStore::kExact values a series,
//               within its kRelativeError beyond
//
// Memory is bounded whatever the length (playback/statistics/quantile_store.hh).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "playback/statistics/batch_means.hh"
#include "playback/statistics/quantile_store.hh"
#include "playback/reports/report.hh"
#include "playback/reports/stat_row.hh"

namespace pm {

struct SeriesStats {
  std::string name;
  std::string unit;
  bool level = false;
  size_t count = 0;  // values (intervals, or samples for a level)
  double mean = 0, min = 0, max = 0;
  int64_t max_ns = 0;  // Unix ns of the max
  double max_elapsed = 0;  // its elapsed time (play's)
  double p50 = 0, p95 = 0, p99 = 0;
  bool exact = true;  // the percentiles exact (else within the sketch's error)
  double total = 0, seconds = 0;  // a rate's Σ v·Δt and Σ Δt; 0 for a level
  // With SpanStats::KeepBatches(): the values as batch means (diff's
  // within-run test), weighted as the mean is; else null.
  std::shared_ptr<const BatchMeans> batches = nullptr;
};

class SpanStats final : public StatRow {
 public:
  // Keep every series' values as batch means too (before the first value).
  void KeepBatches() { keep_batches_ = true; }
  // A segment's first sample (the span's, or the first after a pause).
  // `layout`: KeptSample::layout() for the samples given (0: not known).
  void First(const RawSample& s, const ReportOptions& options, uint64_t layout = 0);
  // Two consecutive samples of one segment, cur later than prev.
  void Add(const Pair& p, uint64_t layout = 0);

  uint64_t intervals() const { return intervals_; }
  // On the sampling grid (StatsWalk): how many samples were left out.
  bool grid() const { return grid_; }
  uint64_t left_out() const { return left_out_; }
  void set_grid(bool grid) { grid_ = grid; }
  void LeaveOut() { ++left_out_; }
  const TimeOrigin& origin() const { return origin_; }
  void set_origin(TimeOrigin o) { origin_ = o; }
  // In kCollectors order, each report's in the order it first gave them.
  std::vector<SeriesStats> Results() const;

 private:
  struct Series {
    std::string name, unit;
    bool level = false;
    size_t report = 0;  // its report's position in Reports()
    QuantileStore values;
    double weighted = 0, weight = 0;
    double max = 0;
    int64_t max_ns = 0;
    double max_elapsed = 0;
    std::shared_ptr<BatchMeans> batches = nullptr;
    // The parts its name was last given as, and in which layout: the
    // same parts (addresses) in the same layout are the same name.
    SeriesKey seen{};
    uint64_t seen_in = 0;
    size_t follow = kNone;  // the series given after it last time
  };
  static constexpr size_t kNone = static_cast<size_t>(-1);
  void Put(const SeriesKey& key, std::string_view unit, bool level, double v) override;
  void Walk(const Pair& p, uint64_t layout);
  bool levels_only_ = false;
  bool keep_batches_ = false;
  size_t report_ = 0;  // the report being walked  // a segment's first sample: no interval, no rate
  Series& Find(const SeriesKey& key, std::string_view unit, bool level);
  Series& Resolve(const SeriesKey& key, std::string_view unit, bool level);
  Series& Seen(size_t i, const SeriesKey& key);
  Series& Found(size_t i);

  // The series' names, also end to end in one buffer: the check of every
  // value's name against the next series' reads a few KiB, not a heap
  // string per series.
  std::string_view NameOf(size_t i) const {
    return {name_bytes_.data() + name_at_[i].first, name_at_[i].second};
  }

  std::vector<Series> series_;
  std::string name_bytes_;
  std::vector<std::pair<size_t, size_t>> name_at_;  // per series: offset, size
  std::unordered_map<std::string, size_t> index_;
  // Series come in one order pair after pair (a level's first among the
  // rates after a segment's first sample): the one that followed the last
  // series found is tried first.
  size_t next_ = 0, last_ = kNone, first_ = kNone;
  uint64_t layout_ = 0;  // the pair's (0: names are read)
  double interval_ = 0;
  int64_t time_ns_ = 0;
  double elapsed_ = 0;
  TimeOrigin origin_;
  uint64_t intervals_ = 0;
  bool grid_ = false;
  uint64_t left_out_ = 0;
};

// The --stats block of the text summary:
//   * Statistics over N intervals (rates time-weighted; p50/p95/p99 nearest rank)
//   * Statistics over N intervals of the sampling grid, M samples of marks,
//     pauses and the stop left out (...)
//     series  unit  mean  min  max  max at (s)  p50  p95  p99
// one line per series, "max at" seconds after the origin; none when the
// span has no interval.
void AppendStatsText(std::string& out, const SpanStats& stats);
// ,"stats":{"intervals":N,["grid":true,"left_out":M,]"series":{"NAME":{"unit":..,"kind":"rate"|"level",
//   "count":N,"mean":..,"min":..,"max":..,"max_elapsed":..,"max_time":RFC 3339,
//   "p50":..,"p95":..,"p99":..},...}}
void AppendStatsJson(std::string& out, const SpanStats& stats);

}  // namespace pm
