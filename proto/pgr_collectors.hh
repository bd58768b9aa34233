// The collectors, one descriptor each: the single table the recorder's
// options and their --help lines (tools/record_options.cc; stat, live and
// the shell completion take them from there), the background child's
// arguments, the recorder's collector set (daemon/collect/collector_set.cc),
// the header it writes and the reader's header dispatch
// (playback/native_header.cc) are derived from.
//
// Adding a collector: one entry here (with its column names in
// pgr_columns.hh), its collector file in daemon/collect/ (a factory named in
// daemon/collect/collector_set.cc's table), and its reader/rates file in
// playback/. A member with `named_rows` (pressure, procs, cgroups) is read,
// carried across pauses and turned into deltas by one generic path; its
// report file (playback/row_tables.cc lists it) writes play's object and
// summary's block. A collector whose rows are named on the command line
// (--pid PID) sets `value`: the option is derived from the entry too.
// Part of the format: the keys and column names are what a recording
// declares in its header.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "proto/pgr_columns.hh"

namespace pm {

// How a member declares its rows in the header, and so what one sample
// line holds under its key.
enum class PgrRows : uint8_t {
  kOne,      // one array of its fields (proc, mem)
  kCores,    // "cores":[ids]: an array of rows, the aggregate line first (cpu)
  kDevices,  // "devices":[names]: an array of rows, one per name (disk, net)
  kNamed,    // "rows":[names]: the same (pressure, procs, cgroups)
  kPerCpu,   // "rows":[{"irq":..}] and "cpus":N, one column per CPU, in
             // place of "fields" (intr)
};

// One array a collector writes in every sample line, under `key`.
struct PgrMember {
  std::string_view key;                      // "cpu", "proc", ...
  std::span<const std::string_view> fields;  // its columns; empty: one per CPU (kPerCpu)
  PgrRows rows = PgrRows::kOne;
  size_t levels = 0;  // the last `levels` fields are levels, the others counters
};

struct CollectorSpec {
  std::string_view name;              // also the key of its first member
  std::span<const PgrMember> members; // what its sample lines carry
  bool on_by_default;
  std::string_view flag;              // "no-NAME" when on by default, else "record-NAME";
                                      // with `value`, the option that names a row
  std::string_view help;              // the flag's line in --help
  std::string_view sources;           // what it reads, below --root
  // "PID", "PATH": the collector records the rows its repeatable option
  // --FLAG VALUE names, and is on once one is given.
  std::string_view value = {};
};

namespace collector_members {
using enum PgrRows;
inline constexpr PgrMember kCpu[] = {{"cpu", kCpuFields, kCores}, {"proc", kProcFields}};
inline constexpr PgrMember kDisk[] = {{"disk", kDiskFields, kDevices}};
inline constexpr PgrMember kNet[] = {{"net", kNetFields, kDevices}};
inline constexpr PgrMember kMem[] = {{"mem", kMemFields, kOne, kMemFields.size()}};
inline constexpr PgrMember kIntr[] = {{"intr", {}, kPerCpu}};
inline constexpr PgrMember kPressure[] = {{"pressure", kPressureFields, kNamed}};
inline constexpr PgrMember kProcs[] = {
    {"procs", kProcessFields, kNamed, kProcessFields.size() - kProcessCounters}};
inline constexpr PgrMember kCgroups[] = {
    {"cgroups", kCgroupFields, kNamed, kCgroupFields.size() - kCgroupCounters},
    {"cgroup_io", kCgroupIoFields, kNamed}};
}  // namespace collector_members

// In the order a sample line carries them, which is the order of every
// output: PerfMonger's play keys (cpu, intr, disk, net, mem), then ours.
inline constexpr std::array<CollectorSpec, 8> kCollectors = {{
    {"cpu", collector_members::kCpu, true, "no-cpu", "do not record CPU usage",
     "/proc/stat"},
    {"intr", collector_members::kIntr, false, "record-intr", "record /proc/interrupts too",
     "/proc/interrupts"},
    {"disk", collector_members::kDisk, true, "no-disk", "do not record disk I/O",
     "/proc/diskstats, /sys/block"},
    {"net", collector_members::kNet, true, "no-net", "do not record network I/O",
     "/proc/net/dev"},
    {"mem", collector_members::kMem, true, "no-mem", "do not record memory usage",
     "/proc/meminfo"},
    {"pressure", collector_members::kPressure, false, "record-pressure",
     "record pressure stall times (/proc/pressure)", "/proc/pressure/{cpu,io,memory,irq}"},
    {"procs", collector_members::kProcs, false, "pid",
     "record process PID's CPU time and I/O (repeatable)", "/proc/PID/stat, /proc/PID/io",
     "PID"},
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

// The index of collector `name` in kCollectors, or kCollectors.size().
constexpr size_t CollectorIndex(std::string_view name) {
  size_t i = 0;
  while (i < kCollectors.size() && kCollectors[i].name != name) ++i;
  return i;
}

}  // namespace pm
