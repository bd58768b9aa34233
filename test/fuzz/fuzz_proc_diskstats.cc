// /proc/diskstats' parser (daemon/collect/parse_diskstats.hh), see
// proc_fuzz.hh.
#include "daemon/collect/parse_diskstats.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

std::string Show(const pm::DiskStats& s) {
  std::string out;
  for (const pm::DiskRow& row : s.rows) {
    out += std::to_string(row.major) + ":" + std::to_string(row.minor) + " ";
    out.append(row.name);
    pm::fuzz::AppendNumbers(out, row.counters);
    out += " fields " + std::to_string(row.fields);
    out += "\n";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::DiskStats>(
      data, size, [](std::string_view t, pm::DiskStats& o) { pm::ParseDiskstats(t, o); },
      Show);
  return 0;
}
