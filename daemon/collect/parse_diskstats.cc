#include "daemon/collect/parse_diskstats.hh"

#include <charconv>
#include <string>

#include "daemon/collect/scan.hh"
#include "proto/columns/disk.hh"

namespace pm {
namespace {

constexpr int kOldPartitionColumns = 4;

unsigned ParseDeviceNumber(std::string_view& rest, std::string_view source, int line) {
  std::string_view word = scan::NextWord(rest);
  unsigned v = 0;
  const char* end = word.data() + word.size();
  auto [ptr, ec] = std::from_chars(word.data(), end, v);
  if (word.empty() || ec != std::errc() || ptr != end) {
    scan::ThrowAt(source, line, "expected 'major minor name' at the start of the line");
  }
  return v;
}

// Returns how many of kDiskFields the line had (4-column partitions count
// as the 11 of their time, zero-filled).
size_t ParseCounters(std::string_view rest, DiskCounters& c, std::string_view source,
                     int line) {
  c.fill(0);
  int n = scan::ReadNumbers(rest, c);
  if (n < 0) scan::ThrowAt(source, line, "disk counters must be unsigned integers");
  if (n == kOldPartitionColumns) {
    // rd_ios rd_sectors wr_ios wr_sectors -> reads, read_sectors, writes, write_sectors
    c = DiskCounters{c[0], 0, c[1], 0, c[2], 0, c[3]};
    return kDiskBaseFields;
  }
  if (n < static_cast<int>(kDiskBaseFields)) {
    scan::ThrowAt(source, line, "device line has " + std::to_string(n) +
                                    " counters; expected 4 or at least 11");
  }
  return static_cast<size_t>(n);
}

}  // namespace

void ParseDiskstats(std::string_view text, DiskStats& out, std::string_view source) {
  out.rows.clear();
  scan::Lines lines(text);
  std::string_view line;
  while (lines.Next(line)) {
    if (scan::TrimBlanks(line).empty()) continue;
    DiskRow& row = out.rows.emplace_back();
    std::string_view rest = line;
    row.major = ParseDeviceNumber(rest, source, lines.number());
    row.minor = ParseDeviceNumber(rest, source, lines.number());
    row.name = scan::NextWord(rest);
    if (row.name.empty()) scan::ThrowAt(source, lines.number(), "missing device name");
    row.fields = ParseCounters(rest, row.counters, source, lines.number());
  }
}

}  // namespace pm
