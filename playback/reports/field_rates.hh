// The shape vmstat's and netstat's reports share: one row of named
// counters (and levels), shown as per-second rates, counts over the
// interval or levels, under keys grouped as play's object nests them;
// a field the recording's kernel did not print shows nowhere (its header
// did not declare it), a zero does.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "playback/reports/report.hh"

namespace pm {

class CsvRow;
class MetricFamilies;
class MetricRow;
class PlotLines;
class StatRow;

enum class RateKind : unsigned char {
  kPerSecond,  // Δ / interval
  kCount,      // Δ over the interval (oom kills)
  kLevel,      // the later sample's value
};

struct RateKey {
  std::string_view key;    // play's: "faultps"
  size_t field;            // of the member's
  RateKind kind;
  std::string_view label;  // summary's line: "faults"
  std::string_view unit;   // summary's unit: "/s"
};

// Keys under play's `"member":{"name":{..}}`, or directly when name is "".
struct RateGroup {
  std::string_view name;
  std::span<const RateKey> keys;
};

// live's table: a column of the key's value times `scale` (into the
// column's unit: kB/s are bytes/s there).
struct RateColumn {
  const RateKey* key;
  double scale = 1.0;
};

struct RateTable {
  const size_t* member;  // its index (MemberIndexOf, at run time)
  std::string_view key;      // play's and CSV's: "vmstat"
  std::string_view heading;  // summary's block: "Paging and swapping"
  std::span<const RateGroup> groups;
  std::string_view metric_prefix;  // "node_vmstat_": + the field's name
  std::span<const RateKey* const> plotted;  // plot's data file's columns, in order
  std::string_view plot_block;              // its block's comment: "# paging"
  std::string_view live_heading;              // live's group: "paging"
  std::span<const LiveColumn> live_columns;   // its columns...
  std::span<const RateColumn> live_keys;      // ...and their keys, one each
};

// The member over the pair, by the table: each output's slot.
void PlayRates(std::string& out, const RateTable& t, const Pair& p);
void SummaryRates(std::string& out, const RateTable& t, const Pair& p);
void SummaryJsonRates(std::string& out, const RateTable& t, const Pair& p);
void CsvRates(CsvRow& row, const RateTable& t, const Pair& p);
// OpenMetrics: a gauge per field, named prefix + field (node_exporter's
// vmstat and netstat collectors export these untyped, without _total).
void RateFamilies(MetricFamilies& out, const RateTable& t);
void RateSeries(MetricRow& row, const RateTable& t, const RawSample& s);
// summary --stats: each key shown, as a rate (per second, or a count over
// the interval) or a level, under its play path and summary unit.
void StatsRates(StatRow& row, const RateTable& t, const Pair& p);
// plot: one line of the table's `plotted` keys in its data file's block.
void PlotRates(PlotLines& out, const RateTable& t, const Pair& p);
// live: the columns' values over the pair (NaN: a key not recorded).
bool LiveRates(const RateTable& t, const Pair& p, std::string_view part, std::span<double> out);
// One key's value over the pair.
double RateValue(const RateKey& k, const Pair& p, size_t member);

// A report's slots on table kT, for its constant Report:
//   constexpr Report kVmstatReport = RateSlots<kTable>::Report(&kPlot);
template <const RateTable& kT>
struct RateSlots {
  static void Play(std::string& out, const Pair& p) { PlayRates(out, kT, p); }
  static void Summary(std::string& out, const Pair& p) { SummaryRates(out, kT, p); }
  static void SummaryJson(std::string& out, const Pair& p) { SummaryJsonRates(out, kT, p); }
  static void Csv(CsvRow& row, const Pair& p) { CsvRates(row, kT, p); }
  static void Families(MetricFamilies& out) { RateFamilies(out, kT); }
  static void Series(MetricRow& row, const RawSample& s) { RateSeries(row, kT, s); }
  static void Stats(StatRow& row, const Pair& p) { StatsRates(row, kT, p); }
  static void PlotPair(PlotLines& out, const Pair& p) { PlotRates(out, kT, p); }
  static bool Live(const Pair& p, std::string_view part, std::span<double> out) {
    return LiveRates(kT, p, part, out);
  }
  static constexpr MetricsSlot kMetrics = {Families, {}, Series};
  static constexpr LiveSlot kLive = {kT.live_heading, kT.live_columns, nullptr, Live};
  static constexpr ::pm::Report Report(const PlotSlot* plot) {
    return {.play = Play,
            .summary_text = Summary,
            .heading = kT.heading,
            .summary_json = SummaryJson,
            .phases = &kCounterGaps,
            .stats = Stats,
            .csv = Csv,
            .openmetrics = &kMetrics,
            .plot = plot,
            .live = &kLive};
  }
};
}  // namespace pm
