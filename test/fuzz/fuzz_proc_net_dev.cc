// /proc/net/dev's parser (daemon/collect/parse_net_dev.hh), see
// proc_fuzz.hh.
#include "daemon/collect/parse_net_dev.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

std::string Show(const pm::NetDev& s) {
  std::string out;
  for (const pm::NetRow& row : s.rows) {
    out.append(row.name);
    pm::fuzz::AppendNumbers(out, row.counters);
    out += "\n";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::NetDev>(
      data, size, [](std::string_view t, pm::NetDev& o) { pm::ParseNetDev(t, o); }, Show);
  return 0;
}
