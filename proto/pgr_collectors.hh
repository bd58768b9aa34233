// The collectors, one descriptor each, in the order a sample line carries
// them, which is the order of every output: the table the recorder's
// options and their --help lines (tools/record/record_options.cc; stat, live and
// the shell completion take them from there), the background child's
// arguments, the header the recorder writes and the reader's reading of it
// are derived from. Part of the format: the keys and column names are what
// a recording declares in its header (pgr(5)).
//
// Three tables follow this one by position, checked at compile time: the
// recorder's factories (daemon/collect/collector_set.cc), the readers'
// reports (playback/reports/reports.cc); and so every output reaches every
// collector. Adding one is a line here (with its columns in
// proto/columns/NAME.hh), its parser and collector in daemon/collect/, its
// report in playback/, and a line in each list (README, Layout).
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "proto/pgr_collector_spec.hh"
#include "proto/columns/cgroup.hh"
#include "proto/columns/cpu.hh"
#include "proto/columns/disk.hh"
#include "proto/columns/load.hh"
#include "proto/columns/mem.hh"
#include "proto/columns/net.hh"
#include "proto/columns/netstat.hh"
#include "proto/columns/pressure.hh"
#include "proto/columns/process.hh"
#include "proto/columns/sockstat.hh"
#include "proto/columns/vmstat.hh"

namespace pm {

namespace collector_members {
using enum PgrRows;
inline constexpr PgrMember kCpu[] = {
    {"cpu", kCpuFields, kCores}, {"proc", kProcFields}, {"cpu_fine", kCpuFineFields, kCores}};
inline constexpr PgrMember kDisk[] = {{"disk", kDiskFields, kDevices}};
inline constexpr PgrMember kNet[] = {{"net", kNetFields, kDevices}};
inline constexpr PgrMember kMem[] = {{"mem", kMemFields, kOne, kMemFields.size()}};
inline constexpr PgrMember kIntr[] = {{"intr", {}, kPerCpu}};
inline constexpr PgrMember kPressure[] = {{"pressure", kPressureFields, kNamed}};
inline constexpr PgrMember kLoad[] = {{"load", kLoadFields, kOne, kLoadFields.size()}};
inline constexpr PgrMember kVmstat[] = {{"vmstat", kVmstatFields}};
inline constexpr PgrMember kNetstat[] = {{"netstat", kNetstatFields, kOne, 1}};
inline constexpr PgrMember kSockstat[] = {
    {"sockstat", kSockstatFields, kOne, kSockstatFields.size()}};
inline constexpr PgrMember kProcs[] = {
    {"procs", kProcessFields, kNamed, kProcessFields.size() - kProcessCounters}};
inline constexpr PgrMember kCgroups[] = {
    {"cgroups", kCgroupFields, kNamed, kCgroupFields.size() - kCgroupCounters},
    {"cgroup_io", kCgroupIoFields, kNamed}};
}  // namespace collector_members

// In the order a sample line carries them, which is the order of every
// output: PerfMonger's play keys (cpu, intr, disk, net, mem), then ours.
inline constexpr std::array<CollectorSpec, 12> kCollectors = {{
    {"cpu", collector_members::kCpu, true, "no-cpu", "do not record CPU usage",
     "/proc/stat, /proc/schedstat, cgroup2 cpu.stat, cpuidle"},
    {"intr", collector_members::kIntr, false, "record-intr", "record /proc/interrupts too",
     "/proc/interrupts"},
    {"disk", collector_members::kDisk, true, "no-disk", "do not record disk I/O",
     "/proc/diskstats, /sys/block"},
    {"net", collector_members::kNet, true, "no-net", "do not record network I/O",
     "/proc/net/dev"},
    {"mem", collector_members::kMem, true, "no-mem", "do not record memory usage",
     "/proc/meminfo"},
    {"pressure", collector_members::kPressure, false, "record-pressure",
     "record pressure stall times (/proc/pressure)", "/proc/pressure/{cpu,io,memory,irq}", {},
     true},
    {"load", collector_members::kLoad, false, "record-load",
     "record load averages and the run queue", "/proc/loadavg, /proc/stat", {}, true, true},
    {"vmstat", collector_members::kVmstat, false, "record-vmstat",
     "record paging and swapping (/proc/vmstat)", "/proc/vmstat", {}, true},
    {"netstat", collector_members::kNetstat, false, "record-netstat",
     "record TCP and UDP counters (/proc/net/snmp, netstat)",
     "/proc/net/snmp, /proc/net/netstat", {}, true},
    {"sockstat", collector_members::kSockstat, false, "record-sockstat",
     "record socket counts (/proc/net/sockstat)", "/proc/net/sockstat", {}, true},
    {"procs", collector_members::kProcs, false, "pid",
     "record process PID's CPU time and I/O (repeatable)", "/proc/PID/stat, /proc/PID/io",
     "PID", true},
    {"cgroups", collector_members::kCgroups, false, "cgroup",
     "record cgroup v2 group PATH's CPU, I/O, memory and\npressure (repeatable; PATH below the cgroup2 mount\nor absolute)",
     "/sys/fs/cgroup[/unified]/PATH/{cpu,io,memory}.*", "PATH"},
}};

// Every member, all collectors' together, in kCollectors order: the keys a
// sample line may carry.
constexpr size_t kPgrMemberCount = [] {
  size_t n = 0;
  for (const CollectorSpec& c : kCollectors) n += c.members.size();
  return n;
}();

// The index of member `key` among the kPgrMemberCount, or kPgrMemberCount.
constexpr size_t PgrMemberIndex(std::string_view key) {
  size_t i = 0;
  for (const CollectorSpec& c : kCollectors)
    for (const PgrMember& m : c.members) {
      if (m.key == key) return i;
      ++i;
    }
  return i;
}

// Member `i` of the kPgrMemberCount.
constexpr const PgrMember& PgrMemberAt(size_t i) {
  for (const CollectorSpec& c : kCollectors)
    for (const PgrMember& m : c.members)
      if (i-- == 0) return m;
  return kCollectors[0].members[0];  // not reached for i < kPgrMemberCount
}

// Member `key`'s descriptor, or nullptr for a key no collector writes.
constexpr const PgrMember* FindPgrMember(std::string_view key) {
  for (const CollectorSpec& c : kCollectors)
    for (const PgrMember& m : c.members)
      if (m.key == key) return &m;
  return nullptr;
}

// Whether a list joined to the table by position (the factories, the
// reports) names the collectors in order, entry i's `name` being
// kCollectors[i]'s: for its static_assert, beside one on its size.
template <class Entry, size_t N>
constexpr bool InCollectorOrder(const Entry (&list)[N]) {
  for (size_t i = 0; i < N && i < kCollectors.size(); ++i)
    if (list[i].name != kCollectors[i].name) return false;
  return true;
}

// The index of collector `name` in kCollectors, or kCollectors.size().
constexpr size_t CollectorIndex(std::string_view name) {
  size_t i = 0;
  while (i < kCollectors.size() && kCollectors[i].name != name) ++i;
  return i;
}

}  // namespace pm
