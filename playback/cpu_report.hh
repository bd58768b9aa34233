// PerfMonger's CPU arithmetic (compat §4), for the cpu report and for the
// reports that put a share beside the machine's (procs, cgroups).
#pragma once

#include "playback/report.hh"

namespace pm {

struct CpuUsage {  // percent of one core (or, for the aggregate, × num_core)
  double usr = 0, nice = 0, sys = 0, idle = 0, iowait = 0, hardirq = 0,
         softirq = 0, steal = 0, guest = 0, guestnice = 0;
};

// The aggregate line over the pair, × the cores (play's "all").
CpuUsage AllUsage(const Pair& p);
// Core `core` (0, 1, ...) over the pair; 0 when offline in either sample.
CpuUsage CoreUsage(const Pair& p, size_t core);
// The "all" row as one CPU's percent (not × num_core); 0 when offline.
CpuUsage MeanUsage(const Pair& p);
// Whether core `core` is online in both samples.
bool HasCore(const Pair& p, size_t core);
// The cores of the later sample.
size_t NumCore(const Pair& p);

// The machine's busy CPU seconds over the pair (0 without the cpu
// collector).
double BusyCpuSeconds(const Pair& p);

}  // namespace pm
