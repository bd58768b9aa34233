// The reports (playback/reports/report.hh), one per collector, in kCollectors
// order (proto/pgr_collectors.hh): what every output walks.
#pragma once

#include <cstddef>
#include <span>

#include "playback/reports/report.hh"

namespace pm {

struct ReportEntry {
  const Report* report;
  size_t first_member;   // its members' positions in RawSample::members
  size_t members;
};

// Every collector's, in kCollectors order.
std::span<const ReportEntry> Reports();

}  // namespace pm
