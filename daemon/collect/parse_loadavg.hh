// /proc/loadavg, and /proc/stat's procs_running and procs_blocked: the
// load averages and the run queue. Pure: text in, struct out.
//
//   0.52 0.58 0.59 2/1234 5678
//
// The kernel prints each average with two decimals, so ×100 is exact.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "proto/columns/load.hh"

namespace pm {

// In kLoadFields order: load1/5/15 ×100, runnable, threads, procs_running,
// procs_blocked.
using LoadValues = std::array<uint64_t, kLoadFields.size()>;

// Fills the first five values. Throws FormatError "source:1: ..." unless
// the text starts "A.AA B.BB C.CC R/T".
void ParseLoadavg(std::string_view text, LoadValues& out,
                  std::string_view source = "/proc/loadavg");

// Fills procs_running and procs_blocked from their lines of /proc/stat
// (0 for a line the kernel did not print); other lines are skipped.
// Throws FormatError for such a line without a number.
void ParseProcsLines(std::string_view text, LoadValues& out,
                     std::string_view source = "/proc/stat");

}  // namespace pm
