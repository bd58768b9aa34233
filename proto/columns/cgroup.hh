// The cgroups collector's columns (members "cgroups" and "cgroup_io").
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace pm {

// One cgroup v2 group: cpu.stat (µs, throttling), io.stat summed over its
// devices, memory.stat's pgmajfault, its own {cpu,io,memory}.pressure
// totals (µs); then three levels: memory.current and memory.stat's anon and
// file (bytes). A file the group lacks (a controller not enabled) reads 0
// and is named in the header's "absent".
inline constexpr std::array<std::string_view, 19> kCgroupFields = {
    "usage_usec", "user_usec", "system_usec", "nr_throttled", "throttled_usec",
    "rbytes", "wbytes", "rios", "wios", "pgmajfault",
    "cpu_some_us", "cpu_full_us", "io_some_us", "io_full_us", "memory_some_us",
    "memory_full_us", "memory_current", "anon", "file"};
inline constexpr size_t kCgroupCounters = 16;
// One group's io.stat line for one whole disk (row "PATH:DEV"; a disk the
// group has not used yet reads 0).
inline constexpr std::array<std::string_view, 4> kCgroupIoFields = {"rbytes", "wbytes", "rios",
                                                                    "wios"};
// Indices into kCgroupFields, for the writer and the reader alike.
namespace cgroup_field {
enum : size_t { kUsage, kUser, kSystem, kNrThrottled, kThrottled, kRbytes, kWbytes, kRios,
                kWios, kMajflt, kCpuSome, kCpuFull, kIoSome, kIoFull, kMemSome, kMemFull,
                kMemCurrent, kAnon, kFile };
}  // namespace cgroup_field
static_assert(kCgroupFields[cgroup_field::kMajflt] == "pgmajfault");
static_assert(kCgroupFields[cgroup_field::kFile] == "file");

}  // namespace pm
