// /proc/net/dev: traffic counters per network interface. Pure: text in,
// struct out.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace pm {

// 8 receive then 8 transmit counters, in file (and recording) order.
inline constexpr std::array<std::string_view, 16> kNetFields = {
    "rx_bytes", "rx_packets", "rx_errs",  "rx_drop",  "rx_fifo",    "rx_frame",
    "rx_compressed", "rx_multicast", "tx_bytes", "tx_packets", "tx_errs",
    "tx_drop", "tx_fifo", "tx_colls", "tx_carrier", "tx_compressed"};
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
