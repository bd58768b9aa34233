// The machine's CPU figures that other reports and outputs quote (procs
// beside the machine's busy seconds, intr's context switches, summary's
// resolution warning): the few queries they need, without the cpu
// arithmetic's CpuUsage (cpu_report.hh), so that editing the cpu report's
// own arithmetic does not rebuild them. Defined by the cpu report's files.
#pragma once

#include <cstdint>
#include <string>

namespace pm {

struct Pair;
struct RecordingInfo;

// The machine's busy CPU seconds over the pair (0 without the cpu
// collector).
double BusyCpuSeconds(const Pair& p);

// sar -w's cswch/s over the pair (the "proc" member's ctxt); NaN when
// either sample lacks it. For live's intr group, dstat's csw.
double ContextSwitchesPerSecond(const Pair& p);

// The resolution, in ns, of the machine's CPU time (row all) as rated:
// that of the source the arithmetic in cpu_report.hh takes it from (pgr(5)
// "sources": busy_ns's, else idle_ns's, else /proc/stat's); /proc/stat's
// 10 ms for a recording that names none (older ones, PerfMonger's, info
// null). A span or phase shorter than this has no CPU numbers to trust.
int64_t CpuResolutionNs(const RecordingInfo* info);
// What summary says of it: "cgroup2 cpu.stat, 4 ms (no /proc/schedstat,
// no cpuidle)", "/proc/stat, 10 ms (no cgroup2 cpu.stat, ...)".
std::string CpuSourceText(const RecordingInfo* info);

}  // namespace pm
