// "vmstat": /proc/vmstat's paging and swapping counters, as sar -B and -W
// read them; kernels before 4.8 print pgscan_* and pgsteal_* per zone,
// summed.
#include "daemon/collect/fields_collector.hh"

namespace pm {
namespace {

constexpr FieldsFile kFiles[] = {
    {"proc/vmstat", FieldsLayout::kNameValue, ProcFile::Delivery::kRecords}};
constexpr std::string_view kZoned[] = {"pgscan_kswapd", "pgscan_direct", "pgsteal_kswapd",
                                       "pgsteal_direct"};
constexpr FieldsTable kTable = {kFiles, kZoned};

}  // namespace

std::unique_ptr<Collector> MakeVmstatCollector(CollectorContext& context) {
  return MakeFieldsCollector(context, kTable);
}

}  // namespace pm
