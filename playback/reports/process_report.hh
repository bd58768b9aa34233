// What the procs report shares with the phase cost (phase_cost.hh): its
// rows' totals over a pair.
#pragma once

#include <cstdint>

#include "playback/reports/report.hh"

namespace pm {

struct ProcessRowsTotal {
  double cpu_s = 0;     // own CPU (precise when recorded) and waited-for children's
  uint64_t bytes = 0;   // storage read and written
  int rows = 0;         // the rows live at both ends
};
ProcessRowsTotal ProcessRowsOver(const Pair& p);

}  // namespace pm
