// The disk collector's columns (member "disk").
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace pm {

// /proc/diskstats per device: the 11 counters of every kernel, then the
// discards of 4.18 and the flushes of 5.5. A recording declares only the
// ones its kernel printed (kDiskBaseFields, kDiskDiscardFields or all), so
// a reader tells "never measured" from zero.
inline constexpr std::array<std::string_view, 17> kDiskFields = {
    "reads", "read_merges", "read_sectors", "read_ms", "writes", "write_merges",
    "write_sectors", "write_ms", "in_flight", "io_ms", "weighted_io_ms",
    "discards", "discard_merges", "discard_sectors", "discard_ms", "flushes", "flush_ms"};
inline constexpr size_t kDiskBaseFields = 11;
inline constexpr size_t kDiskDiscardFields = 15;

}  // namespace pm
