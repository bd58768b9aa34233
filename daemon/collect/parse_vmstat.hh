// /proc/vmstat: the paging and swapping counters sar -B and -W read. Pure:
// text in, struct out.
//
//   pgpgin 1234
//   pgscan_kswapd 0
//
// One "name value" a line; names it does not record are skipped, so a
// kernel may add, drop or reorder lines.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "proto/pgr_columns.hh"

namespace pm {

struct VmstatValues {
  std::array<uint64_t, kVmstatFields.size()> values{};  // in kVmstatFields order
  std::array<bool, kVmstatFields.size()> present{};     // the kernel printed it
};

// Fills `out` afresh. Throws FormatError "source:line: ..." for a recorded
// name without an unsigned number after it.
void ParseVmstat(std::string_view text, VmstatValues& out,
                 std::string_view source = "/proc/vmstat");

}  // namespace pm
