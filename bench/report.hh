// Turns the raw figures of one bench run into the result table.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/control.hh"
#include "bench/scenarios.hh"
#include "bench/stats.hh"

namespace pm::bench {

// The default set and it plus more collectors, at 10 ms side by side,
// each beside a floor sampler of the same files for the same time.
struct BesideFloor {
  TimedRun base, run;
  double floor_base_cpu_s = 0, floor_cpu_s = 0;
  uint64_t ticks = 0;  // the floors' (0: not run)
};

struct Results {
  StartStopRuns start_stop;         // gzip, -i 1s, stopped at once
  FloorRuns floors;                 // measured beside each start_stop rep

  StartStopRuns empty_10, empty_100, empty_100_zstd;
  TimedRun run_10, run_100, run_100_zstd;
  // The same beside them in format v2 (its empty runs are v1's: the first
  // sample is a keyframe, a v1 line).
  TimedRun run_10_v2, run_100_v2, run_100_zstd_v2;
  double floor_10_cpu_s = 0, floor_100_cpu_s = 0;
  uint64_t floor_10_ticks = 0, floor_100_ticks = 0;
  // The floors read the finer CPU files too (CpuFineFiles(), as the cpu
  // collector does); beside the 10 ms one, a floor without them: the
  // finer sources' read cost.
  double floor_10_coarse_cpu_s = 0;
  int cpu_fine_files = 0;

  ControlRuns control;              // --cmd-fd round-trips, gzip -i 1

  // At 10 ms side by side: the default set, and it plus pressure, one --pid
  // and one --cgroup (issue 16's collectors); how many files each reads.
  TimedRun run_10_base, run_10_extra;
  int default_files = 4;            // stat, diskstats, net/dev, meminfo, the finer CPU files
  int extra_files = 0;              // pressure, /proc/PID/{stat,io}, the group's

  // At 10 ms side by side: the default set and it plus --record-load,
  // --record-vmstat and --record-netstat, each beside the floor sampler
  // reading the same files: whether they may be on by default.
  BesideFloor sar;
  // The same with --pid of a process of kPidThreads threads (the bench
  // itself), beside the floor of its stat, io and every thread's
  // schedstat: the cost of a process's CPU clock and run-queue wait.
  BesideFloor pid;
};

inline constexpr int kPidThreads = 64;

std::vector<Row> BuildRows(const Results& r);

// Sample counts, trailers, missed ticks: what a reader needs to trust the rows.
void PrintDetails(const Results& r);

}  // namespace pm::bench
