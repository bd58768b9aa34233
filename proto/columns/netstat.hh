// The netstat collector's columns (member "netstat").
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <string_view>

namespace pm {

// /proc/net/snmp's Tcp and Udp and /proc/net/netstat's TcpExt counters, as
// sar -n TCP,ETCP,UDP reads them, each "Proto_Name" by the name on its
// protocol's header line; Tcp_CurrEstab, a level, last. A recording
// declares those its kernel printed.
inline constexpr std::array<std::string_view, 18> kNetstatFields = {
    "Tcp_ActiveOpens", "Tcp_PassiveOpens", "Tcp_AttemptFails", "Tcp_EstabResets",
    "Tcp_InSegs", "Tcp_OutSegs", "Tcp_RetransSegs", "Tcp_InErrs", "Tcp_OutRsts",
    "Udp_InDatagrams", "Udp_OutDatagrams", "Udp_NoPorts", "Udp_InErrors",
    "Udp_RcvbufErrors", "Udp_SndbufErrors", "TcpExt_ListenOverflows", "TcpExt_ListenDrops",
    "Tcp_CurrEstab"};

}  // namespace pm
