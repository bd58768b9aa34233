// The machine's CPU time finer than /proc/stat's USER_HZ ticks, where the
// kernel offers it: the cpu collector's member "cpu_fine" (pgr(5)). Each
// source is optional and found once, at the start, below the root dirfd:
//
//   cgroup2 root cpu.stat     row "all": busy_ns (usage_usec), user_ns,
//                             system_ns, nice_ns (when printed); µs, but
//                             the kernel counts them in ticks of HZ
//                             (CgroupCpuSources below)
//   /proc/schedstat           each core: busy_ns (rq_cpu_time), run_delay_ns;
//                             ns; row "all" their sums (busy_ns only without
//                             the cgroup root)
//   cpuN/cpuidle/stateK/time  each core: idle_ns, the states' sum; µs; row
//                             "all" the cores' sum
//
// Each source's fields, rows, file and resolution go into the header's
// "sources"; a field no source gives is not declared, a row none covers
// (or one a source lacked in this read: an offlined CPU) is null.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/collect/parse_schedstat.hh"
#include "daemon/collect/proc_file.hh"
#include "proto/columns/cpu.hh"

namespace pm {


// `"file":..,"resolution_ns":..` source entries, as the header writes them.
struct CpuSourceEntry {
  std::vector<std::string_view> fields;
  bool all = false, cores = false;  // the rows it gives
  std::string file;                 // as on the real machine: "/proc/schedstat"
  int64_t resolution_ns = 0;
};
// `"sources":[{"fields":[..],"rows":["all","cores"],"file":..,"resolution_ns":N},..]`
void AppendCpuSources(std::string& out, std::span<const CpuSourceEntry> sources);

// The kernel's tick, TICK_NSEC (1/HZ: 4 ms at HZ 250), exactly: the
// resolution clock_getres(2) gives the coarse clocks, which advance once
// a tick. The kernel exposes no CONFIG_HZ; a cpu.stat's values only hint
// at it (all multiples of 20 ms look like HZ 100 at HZ 250).
int64_t KernelTickNs();

// The sources of the mounted hierarchy's cpu.stat `file` (its `fields`,
// busy_ns first), each field at the resolution the kernel counts it in
// (cgroup_base_stat_cputime_show()):
// - the kernel's root group (no cgroup.events beside it): every value is
//   a sum of the CPUs' kcpustat, /proc/stat's counters, to which each
//   tick adds a tick (less steal and IRQ time): `tick_ns`;
// - a group below it (the root of a cgroup namespace): usage_usec is the
//   scheduler's ns run time (rstat), printed in µs: 1000 ns; user_usec
//   and system_usec split it by the ticks sampled, nice_usec counts
//   ticks: `tick_ns`.
std::vector<CpuSourceEntry> CgroupCpuSources(std::vector<std::string_view> fields,
                                             const std::string& file, bool kernel_root,
                                             int64_t tick_ns);

class CpuFineSources {
 public:
  using Row = std::array<uint64_t, kCpuFineFields.size()>;

  // Opens what the tree has; reads each once (an unusable source, such as
  // a schedstat version this reader does not know, is left out).
  CpuFineSources(int root_dirfd, std::span<const int> core_ids);

  bool empty() const noexcept { return sources_.empty(); }
  // `"cpu_fine":{"fields":[..],"cores":[..],"sources":[..]}`
  void Describe(std::string& out, std::string_view key) const;
  void Read();
  // `"cpu_fine":[[..],..]`: the declared fields of each row, or null.
  void Append(std::string& out, std::string_view key) const;

 private:
  void OpenCgroup(int root_dirfd);
  void OpenSchedstat(int root_dirfd);
  void OpenCpuidle(int root_dirfd);
  void ReadCgroup();
  void ReadSchedstat();
  void ReadCpuidle();

  std::vector<int> core_ids_;
  std::optional<ProcFile> cgroup_;
  std::string cgroup_file_;
  bool cgroup_nice_ = false;
  std::optional<ProcFile> schedstat_;
  SchedstatSnapshot sched_snap_;
  std::vector<std::vector<ProcFile>> idle_states_;  // per core; empty: no cpuidle
  std::vector<CpuSourceEntry> sources_;
  std::vector<size_t> declared_;  // indices into kCpuFineFields
  std::vector<Row> rows_;         // "all", then each core
  std::vector<uint8_t> live_;     // per row
};

}  // namespace pm
