// /proc/stat: CPU time per CPU, context switches, forks. Pure: text in,
// struct out.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "proto/columns/cpu.hh"

namespace pm {

using CpuTimes = std::array<uint64_t, kCpuFields.size()>;

struct CoreTimes {
  int id = 0;  // N of "cpuN"
  CpuTimes times{};
};

struct StatSnapshot {
  bool has_total = false;  // the aggregate "cpu" line was present
  CpuTimes total{};
  std::vector<CoreTimes> cores;  // "cpuN" lines, in file order
  uint64_t ctxt = 0;             // 0 when the line is missing
  uint64_t processes = 0;
};

// Parses into `out`, reusing its storage. Old kernels print fewer than 10
// columns (9 before guest_nice, 8 before guest, ...): the missing ones are
// 0; fewer than 4 is an error. Columns after the 10th are ignored. Throws
// FormatError "source:line: ...".
void ParseStat(std::string_view text, StatSnapshot& out,
               std::string_view source = "/proc/stat");

}  // namespace pm
