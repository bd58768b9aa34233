// The vmstat collector's columns (member "vmstat").
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <string_view>

namespace pm {

// /proc/vmstat's paging and swapping counters, as sar -B and -W read them:
// pgpgin/pgpgout in kB, the others in pages or events; the pgscan_* and
// pgsteal_* of kernels before 4.8 (per zone: pgscan_kswapd_normal, ...)
// are summed. A recording declares those its kernel printed (oom_kill
// since 4.13).
inline constexpr std::array<std::string_view, 12> kVmstatFields = {
    "pgpgin", "pgpgout", "pswpin", "pswpout", "pgfault", "pgmajfault", "pgfree",
    "pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd", "pgsteal_direct", "oom_kill"};

}  // namespace pm
