// /proc/net/snmp and /proc/net/netstat: per protocol, a line of names and
// a line of values, each opened by the protocol ("Tcp:"). Pure: text in,
// struct out.
//
//   Tcp: RtoAlgorithm RtoMin RtoMax MaxConn ActiveOpens ...
//   Tcp: 1 200 120000 -1 42 ...
//
// Values are found by the names on their header line, never by position
// (kernels add columns); names it does not record are skipped.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "proto/pgr_columns.hh"

namespace pm {

struct NetstatValues {
  std::array<uint64_t, kNetstatFields.size()> values{};  // in kNetstatFields order
  std::array<bool, kNetstatFields.size()> present{};     // the kernel printed it
};

// Adds the recorded "Proto_Name" values of `text` to `out` (fresh, then
// once per file). Throws FormatError "source:line: ..." for a
// header line without its values line, or a recorded value that is not an
// unsigned number.
void ParseSnmp(std::string_view text, NetstatValues& out,
               std::string_view source = "/proc/net/snmp");

}  // namespace pm
