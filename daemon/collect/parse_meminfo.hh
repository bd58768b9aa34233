// /proc/meminfo: the 29 keys PerfMonger records plus MemAvailable. Pure:
// text in, struct out.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "proto/columns/mem.hh"

namespace pm {


struct MemInfo {
  std::array<uint64_t, kMemFields.size()> values{};  // a key absent from the file is 0
  bool present = false;  // at least one recorded key was read: else no meminfo

  // The kernel prints the same keys in the same order on every read, so the
  // parser remembers each line's key and field (-1: not recorded) and the
  // next parse checks a line with one comparison instead of a search.
  std::vector<std::string> line_keys;
  std::vector<int> line_fields;
};

// Every line is "Key: number [unit]". Keys not in kMemFields are skipped
// unchecked; a recorded key without a number is an error. Throws
// FormatError "source:line: ...".
void ParseMeminfo(std::string_view text, MemInfo& out,
                  std::string_view source = "/proc/meminfo");

}  // namespace pm
