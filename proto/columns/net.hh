// The net collector's columns (member "net").
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <string_view>

namespace pm {

// /proc/net/dev per interface: 8 receive then 8 transmit counters.
inline constexpr std::array<std::string_view, 16> kNetFields = {
    "rx_bytes", "rx_packets", "rx_errs", "rx_drop", "rx_fifo", "rx_frame",
    "rx_compressed", "rx_multicast", "tx_bytes", "tx_packets", "tx_errs",
    "tx_drop", "tx_fifo", "tx_colls", "tx_carrier", "tx_compressed"};

}  // namespace pm
