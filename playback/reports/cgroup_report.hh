// What the cgroups report's two files share (cgroup_report.cc: play,
// summary, CSV; cgroup_outputs.cc: OpenMetrics and plot).
#pragma once

#include <string_view>

#include "playback/reports/report.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/cgroup.hh"

namespace pm {

inline const size_t kCgroupMember = MemberIndexOf("cgroups");
inline const size_t kCgroupIoMember = MemberIndexOf("cgroup_io");
inline constexpr size_t kCgroupLevels = kCgroupFields.size() - kCgroupCounters;
static_assert(kCgroupFields.size() == cgroup_field::kFile + 1);

// The disk of cgroup_io's row "PATH:DEV" when PATH is `group`, else "".
inline std::string_view DiskOf(std::string_view row, std::string_view group) {
  size_t colon = row.rfind(':');
  if (colon == std::string_view::npos || row.substr(0, colon) != group) return {};
  return row.substr(colon + 1);
}

extern const MetricsSlot kCgroupMetrics;
extern const PlotSlot kCgroupPlot;
extern const LiveSlot kCgroupLive;

}  // namespace pm
