// The members with named rows (pressure, procs, cgroups; proto/pgr_collectors.hh's
// `named_rows`), handled alike from reading to rates: a pair of samples
// gives each row's counter deltas and current levels; each member's report
// (its file in playback/, listed in row_tables.cc) turns them into play's
// object and summary's block. Adding such a member adds one report.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "playback/raw_sample.hh"

namespace pm {

struct RowDelta {
  std::string name;
  bool present = false;        // in both samples (a gone process: false)
  std::vector<double> values;  // counters: cur − prev (a reset counts 0); levels: cur
};

struct TableDelta {
  bool has = false;            // both samples carry the member
  std::vector<RowDelta> rows;  // the header's rows, in its order
};

// Per member (kCollectors order); only those with named rows are computed.
using TableDeltas = std::vector<TableDelta>;

// Member `member` over [prev, cur], into `out` (its memory reused).
void ComputeTableDelta(size_t member, const MemberRows& prev, const MemberRows& cur,
                       TableDelta& out);
TableDelta ComputeTableDelta(size_t member, const MemberRows& prev, const MemberRows& cur);
// Whether member `member` has named rows (a RowReport).
bool IsRowTable(size_t member);
// The index of member `key`.
size_t MemberIndex(std::string_view key);

struct PairRates;

// What one member adds to play and summary. `rates` are the pair's (its
// interval, the system's figures: summary puts a process's share beside
// the machine's; the other members' deltas).
struct RowReport {
  std::string_view key;
  void (*play_json)(std::string& out, const TableDelta& t, const PairRates& rates);
  void (*summary_json)(std::string& out, const TableDelta& t, const PairRates& rates);
  void (*summary_text)(std::string& out, const TableDelta& t, const PairRates& rates);
  // Shown inside another member's object (cgroup_io in cgroups), not alone.
  bool nested = false;
};

// Named-rows member `member`'s report.
const RowReport& RowReportOf(size_t member);

// What the reports share when they write JSON: v per second (0 over no
// time); a member `"key":v` with two decimals or as an integer, preceded by
// a comma unless it opens its object.
double PerSecond(double v, double seconds);
void AppendFixedMember(std::string& out, std::string_view key, double v);
void AppendUintMember(std::string& out, std::string_view key, uint64_t v);

// The reports, defined in their members' files.
extern const RowReport kPressureReport;
extern const RowReport kProcessReport;
extern const RowReport kCgroupReport;
extern const RowReport kCgroupIoReport;

}  // namespace pm
