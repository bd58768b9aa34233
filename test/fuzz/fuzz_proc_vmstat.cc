// /proc/vmstat through the fixed-fields parser
// (daemon/collect/parse_fields.hh) with vmstat's fields and zoned names,
// see proc_fuzz.hh.
#include "daemon/collect/parse_fields.hh"
#include "proto/columns/vmstat.hh"
#include "test/fuzz/proc_fuzz.hh"

namespace {

constexpr std::string_view kZoned[] = {"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd",
                                       "pgsteal_direct"};
const pm::FieldMatcher kFields(pm::kVmstatFields, kZoned);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  pm::fuzz::FuzzParser<pm::FieldValues>(
      data, size,
      [](std::string_view t, pm::FieldValues& o) {
        o.Reset(kFields.size());
        pm::ParseFields(t, pm::FieldsLayout::kNameValue, kFields, o, "/proc/vmstat");
      },
      pm::fuzz::ShowFields<pm::FieldValues>);
  return 0;
}
