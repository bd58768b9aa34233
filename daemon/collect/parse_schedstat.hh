// /proc/schedstat (kernels built with CONFIG_SCHEDSTATS): per CPU, the
// time its run queue spent running tasks and the time tasks spent
// runnable on it but waiting, in ns. Pure: text in, struct out.
//
//   version 15                       (16 and 17 changed the domain lines)
//   timestamp 4294892416
//   cpu0 yld 0 sched goidle ttwu ttwu_local RUN_NS WAIT_NS pcount
//   domain0 ...                      (skipped)
//
// The kernel's Documentation/scheduler/sched-stats.rst: of a cpuN line's
// numbers, the 7th is rq_cpu_time, the 8th run_delay. rq_cpu_time counts
// a task's run when it leaves the CPU, so a task that keeps a CPU without
// a switch shows nothing until it is switched out.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace pm {

inline constexpr int kSchedstatMinVersion = 15;
inline constexpr int kSchedstatMaxVersion = 17;

struct SchedstatCpu {
  int id = 0;            // N of "cpuN"
  uint64_t run_ns = 0;   // rq_cpu_time
  uint64_t wait_ns = 0;  // run_delay
};

struct SchedstatSnapshot {
  int version = 0;
  std::vector<SchedstatCpu> cpus;  // in file order
};

// Parses into `out`, reusing its storage. The first line must be
// "version N" with N in 15..17; a cpuN line needs at least 9 numbers (more
// are ignored). Throws FormatError "source:line: ...".
void ParseSchedstat(std::string_view text, SchedstatSnapshot& out,
                    std::string_view source = "/proc/schedstat");

}  // namespace pm
