// What every reader hands on: one sample of raw cumulative counters, as
// plain structs, whatever the recording's format (native NDJSON, legacy
// PerfMonger gob). Rates (rates.hh) are computed from pairs of these.
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

#include "proto/pgr_collectors.hh"
#include "proto/pgr_format.hh"

namespace pm {

// user nice system idle iowait irq softirq steal guest guest_nice (jiffies)
using CpuCounters = std::array<uint64_t, 10>;
// reads read_merges read_sectors read_ms writes write_merges write_sectors
// write_ms in_flight io_ms weighted_io_ms
using DiskCounters = std::array<uint64_t, 11>;
// rx: bytes packets errs drop fifo frame compressed multicast, then tx:
// bytes packets errs drop fifo colls carrier compressed
using NetCounters = std::array<uint64_t, 16>;
// /proc/meminfo keys in pgr order (kMemFields, proto/pgr_columns.hh): MemTotal
// MemFree MemAvailable Buffers Cached SwapCached Active Inactive SwapTotal
// SwapFree Dirty Writeback AnonPages Mapped Shmem Slab SReclaimable
// SUnreclaim KernelStack PageTables NFS_Unstable Bounce CommitLimit
// Committed_AS AnonHugePages HugePages_Total HugePages_Free HugePages_Rsvd
// HugePages_Surp Hugepagesize
using MemCounters = std::array<uint64_t, 30>;

struct CoreSample {
  bool present = false;  // false: the core was offline (null) in this sample
  CpuCounters counters{};
};

struct IntrSample {
  std::string irq;       // "24", "NMI", "LOC", ...
  bool numbered = false; // a device interrupt (numeric irq) vs a system one
  bool present = false;
  std::vector<uint64_t> counts;  // one per CPU
};

struct DeviceSample {     // a disk or a network interface
  std::string name;
  bool present = false;
};
struct DiskSample : DeviceSample { DiskCounters counters{}; };
struct NetSample : DeviceSample { NetCounters counters{}; };

// A row of a member with named rows (pressure, procs): its values in the
// member's field order (proto/pgr_columns.hh), a field the header lacks 0.
struct TableRow {
  std::string name;
  bool present = false;  // false: null in this sample (a process gone)
  std::vector<uint64_t> values;
};

struct RowTable {
  bool has = false;             // the sample carried the member
  std::vector<TableRow> rows;   // the header's rows, in its order
};

struct RawSample {
  int64_t time_ns = 0;   // CLOCK_REALTIME
  int64_t mono_ns = 0;   // CLOCK_MONOTONIC (0 in legacy recordings)

  bool has_cpu = false;
  bool cpu_total_present = false;
  CpuCounters cpu_total{};
  std::vector<CoreSample> cores;  // in core order; size = num_core

  bool has_proc = false;
  uint64_t ctxt = 0;
  uint64_t processes = 0;

  bool has_intr = false;
  std::vector<IntrSample> intr;

  bool has_disk = false;
  std::vector<DiskSample> disks;  // in recording order

  bool has_net = false;
  std::vector<NetSample> nets;

  bool has_mem = false;
  MemCounters mem{};

  // Per RowTableMember(i) (proto/pgr_collectors.hh).
  std::array<RowTable, kRowTableCount> tables;
  RowTable& table(std::string_view key) { return tables[RowTableIndex(key)]; }
  const RowTable& table(std::string_view key) const { return tables[RowTableIndex(key)]; }
};

// The recording as a whole, from its header.
struct RecordingInfo {
  std::string format;      // "perfmonger-pgr" or "perfmonger-gob" (legacy)
  int version = 0;
  std::string host;
  int64_t start_ns = 0;
  int64_t interval_ns = 0; // 0 when unknown (legacy)
  int num_core = 0;
  MetaList meta;           // decoded key/value pairs, in recorded order
  // Which MemCounters the recording has (the rest read as 0 but were never
  // recorded: PerfMonger had no MemAvailable, a header may declare fewer).
  std::bitset<std::tuple_size_v<MemCounters>> mem_recorded = AllMem();

  static std::bitset<std::tuple_size_v<MemCounters>> AllMem() {
    return std::bitset<std::tuple_size_v<MemCounters>>().set();
  }
};

// An event line: pause, resume, mark or end (readers skip kinds they do
// not know).
struct RecordingEvent {
  std::string kind;
  int64_t time_ns = 0;
  std::string label;       // mark
  std::string reason;      // end
};

}  // namespace pm
