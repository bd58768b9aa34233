// "sockstat": /proc/net/sockstat's socket counts, as sar -n SOCK reads
// them (sockets used, TCP in use and in TIME_WAIT, UDP, raw, fragments).
#include "daemon/collect/fields_collector.hh"

namespace pm {
namespace {

constexpr FieldsFile kFiles[] = {{"proc/net/sockstat", FieldsLayout::kInlinePairs}};
constexpr FieldsTable kTable = {kFiles};

}  // namespace

std::unique_ptr<Collector> MakeSockstatCollector(CollectorContext& context) {
  return MakeFieldsCollector(context, kTable);
}

}  // namespace pm
