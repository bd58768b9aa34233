// The sockstat collector's columns (member "sockstat").
// Column names of a recording's counter arrays, in recording order: what
// the recorder declares in the header (daemon/collect) and what the reader
// matches by name (playback/reading/native_header.cc). Part of the format (pgr(5));
// the descriptor table (proto/pgr_collectors.hh) points at them.
#pragma once

#include <array>
#include <string_view>

namespace pm {

// /proc/net/sockstat's socket counts, as sar -n SOCK reads them:
// "Proto_name" of its "Proto: name value ..." lines; all levels.
inline constexpr std::array<std::string_view, 6> kSockstatFields = {
    "sockets_used", "TCP_inuse", "UDP_inuse", "RAW_inuse", "FRAG_inuse", "TCP_tw"};

}  // namespace pm
