// /proc/diskstats: I/O counters per block device. Pure: text in, struct out.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "proto/columns/disk.hh"

namespace pm {

using DiskCounters = std::array<uint64_t, kDiskFields.size()>;

struct DiskRow {
  unsigned major = 0;
  unsigned minor = 0;
  std::string_view name;  // a view into the parsed text
  DiskCounters counters{};
  size_t fields = 0;  // how many of counters the kernel printed (11, 15, 17)
  uint64_t reads() const noexcept { return counters[0]; }
  uint64_t writes() const noexcept { return counters[4]; }
};

struct DiskStats {
  std::vector<DiskRow> rows;  // in file order
};

// Parses into `out`, reusing its storage; names view `text`, so they are
// valid while `text` is. A line has 11 or more numbers after the name (15
// since 4.18, 17 since 5.5; those after the 17th are skipped, those it
// lacks read 0), or, for partitions on kernels before 2.6.25, exactly 4
// (reads, read sectors, writes, write sectors: the other counters are 0). Throws FormatError
// "source:line: ...".
void ParseDiskstats(std::string_view text, DiskStats& out,
                    std::string_view source = "/proc/diskstats");

}  // namespace pm
