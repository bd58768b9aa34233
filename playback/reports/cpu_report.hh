// The machine's CPU arithmetic, for the cpu report and for the reports
// that put a share beside the machine's (procs, cgroups).
//
// PerfMonger's (compat §4), operation for operation, from /proc/stat's
// ticks alone: each mode's ticks over all modes' ticks. A PerfMonger 1.0
// recording gets exactly that, all zeros where no tick passed.
//
// A native recording with finer CPU time (member cpu_fine, pgr(5)) gets,
// for each row (all, or a core) whose finer counters the header names:
//   capacity C = the monotonic interval (× the cores, for all)
//   busy B     = busy_ns's delta (the cgroup root's usage, or schedstat's
//                run time), or C − idle_ns's delta (cpuidle); at most C.
//                busy_ns comes first though cpuidle's µs are finer than
//                the cgroup root's ticks: the cgroup root counts time as
//                it passes, a tick at a time, while cpuidle counts an
//                idle period only when it ends, which on an idle CPU can
//                be seconds later.
//                A per-core counter that did not move while the ticks
//                say the CPU worked (schedstat counts a run when it ends,
//                cpuidle an idle period when it ends) is not used: ticks.
//   idle modes = C − B, split idle : iowait by their ticks (all idle
//                without any)
//   busy modes = B split into user (usr, guest), nice (nice, guestnice),
//                system (sys, hardirq, softirq) and steal: by the cgroup
//                root's user_ns, nice_ns, system_ns and the rest of its
//                usage where recorded (row all), each class then by its
//                modes' ticks; otherwise every mode by its ticks (all usr
//                without any).
// Each mode is its time over C, in percent: the modes add up to 100 per
// core. A row's rate is undefined (not measured) when no tick passed and
// no finer counter of it moved: native outputs print null there.
#pragma once

#include <cstddef>

#include "playback/reports/cpu_brief.hh"
#include "playback/reports/report.hh"

namespace pm {

struct CpuUsage {  // percent of one core (or, for the aggregate, × num_core)
  double usr = 0, nice = 0, sys = 0, idle = 0, iowait = 0, hardirq = 0,
         softirq = 0, steal = 0, guest = 0, guestnice = 0;
  // false: nothing measurable passed in the interval (every field is 0;
  // a native recording's outputs show null, a legacy one's PerfMonger's 0)
  bool measured = true;
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
// Whether an output shows `u` as null (not measured, native recording).
bool IsNull(const CpuUsage& u, const Pair& p);

// BusyCpuSeconds, ContextSwitchesPerSecond, CpuResolutionNs and
// CpuSourceText: cpu_brief.hh.

}  // namespace pm
