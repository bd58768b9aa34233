// /proc/net/snmp's and /proc/net/netstat's parser
// (daemon/collect/parse_snmp.hh), see proc_fuzz.hh. The collector parses
// both files into one fresh struct each sample, so the target does too.
#include "daemon/collect/parse_snmp.hh"
#include "test/fuzz/proc_fuzz.hh"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::NetstatValues>(
      data, size,
      [](std::string_view t, pm::NetstatValues& o) {
        o = pm::NetstatValues{};
        pm::ParseSnmp(t, o);
      },
      pm::fuzz::ShowFields<pm::NetstatValues>);
  return 0;
}
