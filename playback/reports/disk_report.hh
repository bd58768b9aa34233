// What the disk collector's report shares with the reports that put a
// figure beside the machine's (procs): the recorded disks' sectors.
#pragma once

#include <cstdint>

#include "playback/reports/report.hh"

namespace pm {

struct DiskSectors {
  int64_t read = 0, written = 0;  // over the pair, the disks --disk-only keeps
};
DiskSectors TotalSectors(const Pair& p);

}  // namespace pm
