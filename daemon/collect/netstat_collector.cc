// "netstat": /proc/net/snmp's Tcp and Udp and /proc/net/netstat's TcpExt
// counters, as sar -n TCP,ETCP,UDP reads them, by the names on each
// protocol's header line.
#include "daemon/collect/fields_collector.hh"

namespace pm {
namespace {

constexpr FieldsFile kFiles[] = {{"proc/net/snmp", FieldsLayout::kHeaderPairs},
                                 {"proc/net/netstat", FieldsLayout::kHeaderPairs}};
constexpr FieldsTable kTable = {kFiles};

}  // namespace

std::unique_ptr<Collector> MakeNetstatCollector(CollectorContext& context) {
  return MakeFieldsCollector(context, kTable);
}

}  // namespace pm
