// The rows of live's table (perfmonger live, play --table): which groups
// of columns it shows and their values per pair, built on the reports'
// live slots (playback/reports/report.hh) so that a collector with a slot is a
// group, and no collector is named here.
//
// Without --columns the groups are every slot's whole (or, for procs and
// cgroups, each recorded row) whose member the first pair carries, in
// kCollectors order. With it, "cpu,cpu:1,disk:vda,net:eth0,mem": a
// collector's key, and after a colon the part its slot reads.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playback/reports/report.hh"

namespace pm {

struct TableGroup {
  const LiveSlot* slot;
  size_t member;        // the collector's first member: whether a pair carries it
  std::string part;     // "" the whole
  std::string heading;  // the slot's heading, or KEY:PART (PART escaped: Printable)
};

class LiveTable {
 public:
  // `spec`: --columns ("" the default). Throws UsageError naming the
  // collectors that have columns.
  explicit LiveTable(std::string_view spec);

  // The pair's values, one per column of every group (NaN: none), added
  // to the average. The default groups are set at the first pair.
  std::span<const double> Add(const Pair& p);
  // Every column's mean over the pairs added, weighted by their
  // intervals (NaN where none had a value); empty before the first pair.
  std::vector<double> Average() const;

  std::span<const TableGroup> groups() const { return groups_; }
  size_t pairs() const { return pairs_; }

 private:
  void Choose(const Pair& p);

  bool chosen_ = false;
  std::vector<TableGroup> groups_;
  std::vector<double> row_, sum_, weight_;
  size_t pairs_ = 0;
};

}  // namespace pm
