// /proc/meminfo: the 29 keys PerfMonger records plus MemAvailable. Pure:
// text in, struct out.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pm {

// The recorded keys, in recording order (values in kB, HugePages_* counts).
inline constexpr std::array<std::string_view, 30> kMemFields = {
    "MemTotal",      "MemFree",         "MemAvailable",   "Buffers",        "Cached",
    "SwapCached",    "Active",          "Inactive",       "SwapTotal",      "SwapFree",
    "Dirty",         "Writeback",       "AnonPages",      "Mapped",         "Shmem",
    "Slab",          "SReclaimable",    "SUnreclaim",     "KernelStack",    "PageTables",
    "NFS_Unstable",  "Bounce",          "CommitLimit",    "Committed_AS",   "AnonHugePages",
    "HugePages_Total", "HugePages_Free", "HugePages_Rsvd", "HugePages_Surp", "Hugepagesize"};

struct MemInfo {
  std::array<uint64_t, kMemFields.size()> values{};  // a key absent from the file is 0

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
