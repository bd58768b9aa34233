// The collectors, one descriptor each: the single table the recorder's
// options and their --help lines (tools/record_options.cc; stat, live and
// the shell completion take them from there), the background child's
// arguments, the recorder's collector set (daemon/collect/collector_set.cc),
// the header it writes and the reader's header dispatch
// (playback/native_header.cc) are derived from.
//
// Adding a collector: one entry here (with its column names in
// pgr_columns.hh), its collector file in daemon/collect/ (a factory named in
// daemon/collect/collector_set.cc's table), and on the reading side its
// fields in playback/raw_sample.hh, its read function in native_reader.cc
// and its rates and output (README, Layout, lists every file). Part of the
// format: the keys and column names are what a recording declares in its
// header.
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "proto/pgr_columns.hh"

namespace pm {

// One array a collector writes in every sample line, under `key`.
struct PgrMember {
  std::string_view key;                      // "cpu", "proc", ...
  std::span<const std::string_view> fields;  // its columns; empty: declared otherwise
};

struct CollectorSpec {
  std::string_view name;              // also the key of its first member
  std::span<const PgrMember> members; // what its sample lines carry
  bool on_by_default;
  std::string_view flag;              // "no-NAME" when on by default, else "record-NAME"
  std::string_view help;              // the flag's line in --help
  std::string_view sources;           // what it reads, below --root
};

namespace collector_members {
inline constexpr PgrMember kCpu[] = {{"cpu", kCpuFields}, {"proc", kProcFields}};
inline constexpr PgrMember kDisk[] = {{"disk", kDiskFields}};
inline constexpr PgrMember kNet[] = {{"net", kNetFields}};
inline constexpr PgrMember kMem[] = {{"mem", kMemFields}};
// Columns are CPUs, declared by "cpus" in the header rather than by name.
inline constexpr PgrMember kIntr[] = {{"intr", {}}};
}  // namespace collector_members

// In the order a sample line carries them.
inline constexpr std::array<CollectorSpec, 5> kCollectors = {{
    {"cpu", collector_members::kCpu, true, "no-cpu", "do not record CPU usage",
     "/proc/stat"},
    {"disk", collector_members::kDisk, true, "no-disk", "do not record disk I/O",
     "/proc/diskstats, /sys/block"},
    {"net", collector_members::kNet, true, "no-net", "do not record network I/O",
     "/proc/net/dev"},
    {"mem", collector_members::kMem, true, "no-mem", "do not record memory usage",
     "/proc/meminfo"},
    {"intr", collector_members::kIntr, false, "record-intr", "record /proc/interrupts too",
     "/proc/interrupts"},
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
