// The pressure collector's columns (member "pressure").
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <string_view>

namespace pm {

// /proc/pressure/{cpu,io,memory,irq}: the cumulative stall time of one
// line ("some" or "full"). Rows are "RESOURCE.LINE" ("cpu.some",
// "irq.full"), one per line the kernel printed at the start.
inline constexpr std::array<std::string_view, 1> kPressureFields = {"total_us"};

}  // namespace pm
