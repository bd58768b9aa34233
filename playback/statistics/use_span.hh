// `summary --use`: Brendan Gregg's USE method over one span (the whole
// recording, a window, a phase), per resource: its Utilisation, its
// Saturation and its Errors over every interval, and its saturated
// bursts (runs of consecutive saturated intervals), which only a
// sub-second recording can show. Saturated stretches less than
// UseThresholds::gap apart are one burst (a 200 ms burst with one quiet
// 10 ms sample inside counts once); a burst's length runs from its first
// saturated interval's start to its last one's end.
//
// It reads the same per-interval series as `summary --stats` (each
// report's `stats` slot, playback/reports/stat_row.hh), so a figure here is the
// figure --stats shows. The rules (use_rules.cc) map a series to a
// resource and a letter:
//   CPU                U cpu.all.busy; S load.runnable beyond the CPU
//                      count, PSI cpu some
//   CPU busiest core   U cpu.busiest_core.busy
//   memory             U mem.in_use (display only: a full page cache is
//                      no saturation); S PSI memory some, swapping,
//                      direct reclaim; E OOM kills
//   I/O (all disks)    S PSI io some
//   disk DEV           U %util; S aqu-sz, await (beside its await at low
//                      load: intervals under kLowLoad % busy)
//   net IF             U throughput (no link speed is recorded); S drops;
//                      E errors
//   TCP                S listen drops, retransmissions; E resets
//   cgroup PATH        U CPU (% of one core); S throttled, PSI some
// An interval is saturated for a resource when one of its saturating
// signals is over its threshold (UseThresholds). Memory is bounded
// whatever the length (QuantileStore).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "playback/statistics/quantile_store.hh"
#include "playback/reports/report.hh"
#include "playback/reports/stat_row.hh"

namespace pm {

// The options, defaults from Gregg's USE checklist and atop's.
struct UseThresholds {
  double busy = 95;   // --use-busy: % utilisation (atop's cpu/disk critical: 90-95)
  double psi = 10;    // --use-psi: % of the interval some task stalled
  double queue = 1;   // --use-queue: a disk's aqu-sz (Gregg: wait queue > 0)
  double share = 5;   // --use-share: % of the span saturated to name a resource
  double gap = 0.05;  // --use-gap: seconds; saturated stretches closer are one burst
};

// A disk's await "at low load": over the intervals it was under this % busy.
inline constexpr double kLowLoad = 30;

struct UseSignal {
  char letter = 'U';        // U, S or E
  std::string label, unit;  // "aqu-sz", "requests"
  size_t count = 0;         // intervals with a value
  double mean = 0, p99 = 0, max = 0;
  double total = 0;         // events over the span (E, and S counts)
  bool events = false;      // show `total`, not mean and p99
  bool saturates = false;   // has a threshold
  double over = 0;          // share of the time over it, %
  double baseline = -1;     // await at low load, ms (-1: none)
};

struct UseBursts {
  uint64_t count = 0;
  double longest = 0, shortest = 0;  // seconds
};

struct UseResource {
  std::string name;  // "CPU", "disk vda"
  std::vector<UseSignal> signals;
  double saturated = 0;  // share of the time saturated, %
  UseBursts bursts;
  std::vector<std::string> missing;  // "S: --record-load for the run queue"
};

class UseSpan final : public StatRow {
 public:
  UseSpan(const UseThresholds& t, int num_core) : t_(t), num_core_(num_core) {}
  // A segment's first sample: a saturated run ends there.
  void First();
  // Two consecutive samples of one segment (as SpanStats::Add).
  void Add(const Pair& p);
  // One interval of `seconds`, its series given to `row` by `values` (Add
  // gives the reports' stats slots).
  void AddInterval(double seconds, const std::function<void(StatRow& row)>& values);

  uint64_t intervals() const { return intervals_; }
  double seconds() const { return seconds_; }
  double max_interval() const { return max_interval_; }
  const UseThresholds& thresholds() const { return t_; }
  int num_core() const { return num_core_; }
  std::vector<UseResource> Results() const;

 private:
  struct Signal {
    UseSignal shown;
    QuantileStore values;
    double weighted = 0, weight = 0, over_time = 0, low = 0, low_weight = 0;
    double now = StatRow::kNoValue;  // this interval's value
  };
  struct Resource {
    std::string name;
    std::vector<Signal> signals;
    double saturated_time = 0;
    double run = 0;    // the open burst's length so far, quiet gaps inside it too
    double quiet = 0;  // unsaturated time since its last saturated interval
    UseBursts bursts;
    bool hot = false;  // saturated in the interval being walked
    double util = -1;  // its U in that interval (a disk's await baseline)
    size_t rank = 0;   // its first rule's: the output's order
  };
  void Put(const SeriesKey& key, std::string_view unit, bool level, double v) override;
  Resource& Find(std::string_view name, size_t rank);
  Signal& SignalOf(Resource& r, std::string_view label);
  static void Close(Resource& r);
  void EndInterval();
  void Walk(Resource& r) const;

  UseThresholds t_;
  int num_core_;
  std::vector<Resource> resources_;
  std::vector<std::string> seen_;  // the series' first parts: what was recorded
  double interval_ = 0;
  uint64_t intervals_ = 0;
  double seconds_ = 0, max_interval_ = 0;
};

}  // namespace pm
