// The mem collector's columns (member "mem").
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <string_view>

namespace pm {

// /proc/meminfo keys: PerfMonger's 29 plus MemAvailable (kB; HugePages_*
// are counts).
inline constexpr std::array<std::string_view, 30> kMemFields = {
    "MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached",
    "SwapCached", "Active", "Inactive", "SwapTotal", "SwapFree",
    "Dirty", "Writeback", "AnonPages", "Mapped", "Shmem",
    "Slab", "SReclaimable", "SUnreclaim", "KernelStack", "PageTables",
    "NFS_Unstable", "Bounce", "CommitLimit", "Committed_AS", "AnonHugePages",
    "HugePages_Total", "HugePages_Free", "HugePages_Rsvd", "HugePages_Surp",
    "Hugepagesize"};

}  // namespace pm
