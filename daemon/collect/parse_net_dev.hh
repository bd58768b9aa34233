// /proc/net/dev: traffic counters per network interface. Pure: text in,
// struct out.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "proto/columns/net.hh"

namespace pm {

using NetCounters = std::array<uint64_t, kNetFields.size()>;

struct NetRow {
  std::string_view name;  // a view into the parsed text
  NetCounters counters{};
};

struct NetDev {
  std::vector<NetRow> rows;  // in file order
};

// Parses into `out`, reusing its storage; names view `text`. The first two
// lines are the column headers. Each interface line is "name: 16 numbers";
// the kernel pads short names but not numbers, so the colon may touch the
// first number ("eth0:18719190"). Names cannot contain ':' (the kernel
// refuses them), so the first colon ends the name. Throws FormatError
// "source:line: ...".
void ParseNetDev(std::string_view text, NetDev& out,
                 std::string_view source = "/proc/net/dev");

}  // namespace pm
