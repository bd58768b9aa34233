// A collector's report: everything the readers show of it, one slot per
// output, as sysstat's struct activity has one function per output format
// and MPD's DecoderPlugin one per operation. Each collector's report is
// one file (playback/<name>_report.cc) ending in one constant Report; the
// list of their addresses (playback/reports/reports.cc) follows kCollectors
// (proto/pgr_collectors.hh) by position, checked at compile time. The
// per-format files (play_json.cc, summary.cc, phases.cc, export_csv.cc,
// openmetrics_catalog.cc, plot_data.cc, tools/plot/plot_scripts.cc) walk the
// list and name no collector.
//
// A slot left empty (null) means "not in that output"; the output's man
// page then says so. Every slot receives the collector's data through the
// samples' members (kCollectors order: a report knows its own members'
// positions from the descriptor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playback/reading/raw_sample.hh"

namespace pm {

class DiskFilter;
class CsvRow;          // export_csv.hh
class MetricFamilies;  // openmetrics_catalog.hh
class MetricRow;       // openmetrics_catalog.hh
class PlotLines;       // plot_data.hh
class StatRow;         // stat_row.hh
struct ChartSpec;      // plot_chart.hh
struct PlotFileSpec;   // plot_chart.hh

// What the readers' options change in a report.
struct ReportOptions {
  const DiskFilter* disk_only = nullptr;  // --disk-only: the disks kept
  bool all = false;                       // summary --all: the blocks beyond PerfMonger's
  // RecordingInfo::recorded (null or empty: every field): summary leaves
  // out what was never measured.
  const std::vector<std::vector<bool>>* recorded = nullptr;
  // A PerfMonger (gob) recording (RecordingInfo::legacy()): every output
  // stays PerfMonger's, byte for byte, so nothing beyond its schema is
  // derived (%util, cswch/s) though its counters would allow it.
  bool legacy = false;
  // The recording's header (null: not known, as for a reader that has
  // none): the cpu report takes the sources of its CPU time from it.
  const RecordingInfo* info = nullptr;
  bool Recorded(size_t member, size_t field) const;
};

// The time between two samples by the monotonic clock they carry, so that
// a step of the wall clock changes no rate; by the wall clock in a
// recording without it (PerfMonger's).
inline int64_t IntervalNs(const RawSample& prev, const RawSample& cur) {
  if (prev.mono_ns > 0 && cur.mono_ns > 0) return cur.mono_ns - prev.mono_ns;
  return cur.time_ns - prev.time_ns;
}
// How far the wall clock stepped between two samples, beyond what the
// monotonic clock saw (0 without it); readers note one of more than
// kWallStepNs.
inline int64_t WallStepNs(const RawSample& prev, const RawSample& cur) {
  if (prev.mono_ns <= 0 || cur.mono_ns <= 0) return 0;
  return (cur.time_ns - prev.time_ns) - (cur.mono_ns - prev.mono_ns);
}
inline constexpr int64_t kWallStepNs = 100'000'000;

// What elapsed time is measured from: the recording's first sample or
// event, on both clocks, also in a window of it (SampleStream::origin).
// It runs on the monotonic clock where the recording has it, so a step of
// the wall clock moves no elapsed time; on the wall clock in PerfMonger's
// (PerfMonger's rounding either way).
struct TimeOrigin {
  int64_t time_ns = 0;
  int64_t mono_ns = 0;  // 0: none (legacy)

  static TimeOrigin Of(const RawSample& s) { return {s.time_ns, s.mono_ns}; }
  static TimeOrigin Of(const RecordingEvent& e) { return {e.time_ns, e.mono_ns}; }
  static TimeOrigin Of(const ItemTime& t) { return {t.time_ns, t.mono_ns}; }
  double Elapsed(int64_t t_ns, int64_t mono) const;
  double Elapsed(const RawSample& s) const { return Elapsed(s.time_ns, s.mono_ns); }
  double Elapsed(const RecordingEvent& e) const { return Elapsed(e.time_ns, e.mono_ns); }
};

// Two samples, and what every rate over them needs: consecutive samples
// for play, CSV and plot; a span's first sample and its active end for
// summary (rated() false when they are one instant).
struct Pair {
  const RawSample& prev;
  const RawSample& cur;
  TimeOrigin origin;        // the recording's first sample or event
  double time;              // cur, Unix seconds
  double elapsed_time;      // cur − origin (TimeOrigin::Elapsed)
  double interval;          // IntervalNs, Go's Duration.Seconds()
  const ReportOptions& options;

  Pair(const RawSample& p, const RawSample& c, TimeOrigin origin, const ReportOptions& o);
  bool rated() const { return IntervalNs(prev, cur) > 0; }
  // Member `m` carried by both samples.
  bool Both(size_t m) const { return prev.members[m].has && cur.members[m].has; }
};

// phases: how the counts of a gap (a pause) are taken out of a span, so
// that a span's first sample and active end give its averages
// (playback/outputs/phases.hh). `add` accumulates one gap of member `m` into
// `acc`; `take` subtracts the accumulated gaps from a sample's member.
struct GapRule {
  void (*add)(MemberRows& acc, const MemberRows& from, const MemberRows& to, size_t m);
  void (*take)(MemberRows& value, const MemberRows& acc);
};
// Counters add up across gaps, the descriptor's levels do not.
extern const GapRule kCounterGaps;

// OpenMetrics: the families the collector exports (declared once, in
// output order), the label names its series use (kept apart from the
// recording's --meta labels), and its series' raw values for one sample.
struct MetricsSlot {
  void (*families)(MetricFamilies& out);
  std::span<const std::string_view> labels;
  void (*series)(MetricRow& row, const RawSample& s);
};

// plot: the data files the collector writes, the lines one pair adds to
// them, and its charts.
struct PlotSlot {
  std::span<const PlotFileSpec> files;
  void (*pair)(PlotLines& out, const Pair& p);
  std::span<const ChartSpec> charts;
};

// live's table (perfmonger live, play --table), as dstat's: a group of
// columns under a heading for one part of the collector: "" its whole (all
// CPUs, the disks' total), or what --columns names after a colon (a core,
// a device). Each column keeps its width: its values are scaled into it by
// their unit (playback/reports/table_cells.hh).
enum class LiveUnit : uint8_t {
  kPercent,  // integer percent
  kBytes,    // bytes or bytes/s, scaled by 1024 (K M G T)
  kCount,    // a count or a rate of events, scaled by 1000 (k m g)
  kFixed,    // two decimals, fewer when wide (a load average)
};
struct LiveColumn {
  std::string_view label;
  int width;
  LiveUnit unit;
};
struct LiveSlot {
  std::string_view heading;              // "cpu"; a part's group is "cpu:1"
  std::span<const LiveColumn> columns;
  // The parts shown without --columns, from the first sample that has
  // the member: null is the whole alone; procs and cgroups list their rows.
  void (*parts)(const RawSample& s, std::vector<std::string>& out);
  // One value per column for `part` (NaN: none this interval); false when
  // the pair lacks the part (a device gone).
  bool (*values)(const Pair& p, std::string_view part, std::span<double> out);
};

struct Report {
  // play: `,"key":value` for each of its members the pair carries, in
  // PerfMonger's schema and formats where PerfMonger has the member.
  void (*play)(std::string& out, const Pair& p);
  // summary: its text block(s), and `,"key":value` for --json.
  void (*summary_text)(std::string& out, const Pair& p);
  // What its text block's heading line starts with after "* " ("Load (last
  // sample)"; a row's block, "Process", the row's name follows).
  std::string_view heading;
  void (*summary_json)(std::string& out, const Pair& p);
  // summary's active time and phases.
  const GapRule* phases;
  // summary --stats: its series over one pair (stat_row.hh); null: none.
  void (*stats)(StatRow& row, const Pair& p);
  // play --format csv: its columns' cells for the pair.
  void (*csv)(CsvRow& row, const Pair& p);
  const MetricsSlot* openmetrics;
  const PlotSlot* plot;
  const LiveSlot* live;
};

// summary --json's slot of a report whose object is play's: over the
// span, when it has rates.
template <void (*kPlay)(std::string&, const Pair&)>
void WhenRated(std::string& out, const Pair& p) {
  if (p.rated()) kPlay(out, p);
}

}  // namespace pm
