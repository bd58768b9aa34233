// The load collector's columns (member "load").
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <string_view>

namespace pm {

// /proc/loadavg's averages ×100 (exact: the kernel prints two decimals)
// and runnable/threads, then /proc/stat's procs_running and
// procs_blocked: all levels.
inline constexpr std::array<std::string_view, 7> kLoadFields = {
    "load1_x100", "load5_x100", "load15_x100", "runnable", "threads",
    "procs_running", "procs_blocked"};

}  // namespace pm
