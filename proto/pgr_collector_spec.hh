// What a collector is, as the recorder and the readers both know it: its
// members (the arrays a sample line carries) and its option. The
// descriptors themselves are in proto/pgr_collectors.hh, which only the
// files that join tables to it by position include (collector_set.cc,
// playback/reports/reports.cc, the collectors and their reports); everything else
// walks them at run time through the functions below, so adding a
// collector rebuilds only those.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

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
  // `stat` records it unless its flag says false (perfmonger-stat(1)).
  bool on_for_stat = false;
  // `live`'s table (not its JSON lines) records it unless its flag is
  // given (perfmonger-live(1)).
  bool on_for_live_table = false;
};

// The descriptors (kCollectors), at run time.
std::span<const CollectorSpec> Collectors();
// Every member, the collectors' together, in kCollectors order.
size_t MemberCount();
const PgrMember& MemberAt(size_t i);
// Member `key`'s index, or MemberCount() for a key no collector writes:
// the reader matches a recording's keys with it.
size_t MemberIndexOf(std::string_view key);
// Collector `name`'s index in kCollectors, or Collectors().size().
size_t FindCollector(std::string_view name);
// Collector `name`'s index in kCollectors; throws std::out_of_range for
// another (tests and command lines name collectors).
size_t CollectorIndexOf(std::string_view name);

}  // namespace pm
