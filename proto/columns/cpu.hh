// The cpu collector's columns: members "cpu", "proc" and "cpu_fine".
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace pm {

// A `cpu` line of /proc/stat, in jiffies.
inline constexpr std::array<std::string_view, 10> kCpuFields = {
    "user", "nice", "system", "idle", "iowait",
    "irq", "softirq", "steal", "guest", "guest_nice"};

// The machine's CPU time finer than /proc/stat's ticks (member
// "cpu_fine", rows as "cpu": "all", then each core), in ns: busy (running
// anything but the idle task), its user (nice and guest included), nice
// and system (irq and softirq included) parts, idle, and the time tasks
// waited runnable. A recording declares those its sources gave and names
// each source in the header (pgr(5)).
inline constexpr std::array<std::string_view, 6> kCpuFineFields = {
    "busy_ns", "user_ns", "nice_ns", "system_ns", "idle_ns", "run_delay_ns"};
namespace cpu_fine_field {
enum : size_t { kBusy, kUser, kNice, kSystem, kIdle, kRunDelay };
}  // namespace cpu_fine_field
static_assert(kCpuFineFields[cpu_fine_field::kRunDelay] == "run_delay_ns");

inline constexpr std::array<std::string_view, 2> kProcFields = {"ctxt", "processes"};

}  // namespace pm
