// cgroup v2 interface files. Pure: text in, values out.
//
//   cpu.stat, memory.stat   "key value" lines (flat keyed)
//   io.stat                 "MAJ:MIN rbytes=N wbytes=N rios=N wios=N dbytes=N dios=N"
//   memory.current          one number
// ({cpu,io,memory}.pressure use parse_pressure.hh.)
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace pm {

// out[i] = the value of keys[i] (0 when the file lacks it); other keys are
// skipped; found[i], when given, says whether the file has keys[i]. Throws
// FormatError "source:line: ..." for a wanted key without a number.
void ParseFlatKeyed(std::string_view text, std::span<const std::string_view> keys,
                    std::span<uint64_t> out, std::string_view source,
                    std::span<bool> found = {});

struct IoStatTotals {
  uint64_t rbytes = 0, wbytes = 0, rios = 0, wios = 0;  // summed over devices
};

struct IoStatRow {
  std::string_view device;  // "MAJ:MIN", a view into the text
  IoStatTotals values;
};

// Unknown KEY=N pairs (dbytes, a later kernel's) are skipped; a pair
// without '=' or a number is an error. `rows`, if given, gets each line.
void ParseIoStat(std::string_view text, IoStatTotals& out, std::string_view source,
                 std::vector<IoStatRow>* rows = nullptr);

// Throws FormatError unless the text is one number (and a newline).
uint64_t ParseSingleValue(std::string_view text, std::string_view source);

}  // namespace pm
