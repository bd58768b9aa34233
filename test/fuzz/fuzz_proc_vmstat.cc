// /proc/vmstat's parser (daemon/collect/parse_vmstat.hh), see proc_fuzz.hh.
#include "daemon/collect/parse_vmstat.hh"
#include "test/fuzz/proc_fuzz.hh"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::VmstatValues>(
      data, size, [](std::string_view t, pm::VmstatValues& o) { pm::ParseVmstat(t, o); },
      pm::fuzz::ShowFields<pm::VmstatValues>);
  return 0;
}
