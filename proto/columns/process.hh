// The procs collector's columns (member "procs", --pid).
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace pm {

// One process (/proc/PID/stat and /proc/PID/io): CPU times in
// microseconds (clock ticks converted at recording), its own and its
// waited-for children's; I/O counters in bytes and calls; its CPU time
// and run-queue wait in ns (daemon/collect/thread_group_cpu.hh; older
// recordings lack them); its page faults (/proc/PID/stat minflt, majflt)
// and the times its threads were switched onto a CPU (the sum of
// /proc/PID/task/*/schedstat's third field: its context switches; older
// recordings lack these three); then two levels (kProcessCounters
// counters come first).
inline constexpr std::array<std::string_view, 17> kProcessFields = {
    "utime_us", "stime_us", "cutime_us", "cstime_us", "rchar", "wchar",
    "read_bytes", "write_bytes", "syscr", "syscw", "cpu_ns", "run_wait_ns",
    "minflt", "majflt", "ctxsw", "num_threads", "rss_kb"};
inline constexpr size_t kProcessCounters = 15;
// Indices into kProcessFields, for the writer and the reader alike.
namespace process_field {
enum : size_t { kUtime, kStime, kCutime, kCstime, kRchar, kWchar, kReadBytes, kWriteBytes,
                kSyscr, kSyscw, kCpuNs, kRunWaitNs, kMinflt, kMajflt, kCtxsw, kThreads,
                kRssKb };
}  // namespace process_field
static_assert(kProcessFields[process_field::kRssKb] == "rss_kb");

}  // namespace pm
