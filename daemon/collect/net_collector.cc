// "net": /proc/net/dev, every interface present at start (lo too).
#include <utility>

#include "daemon/collect/device_collector.hh"
#include "daemon/collect/parse_net_dev.hh"

namespace pm {

std::unique_ptr<Collector> MakeNetCollector(CollectorContext& context) {
  int root_dirfd = context.root_dirfd;
  ProcFile file(root_dirfd, "proc/net/dev");
  NetDev dev;
  ParseNetDev(file.Read(), dev, file.name());
  std::vector<std::string> interfaces;
  for (const NetRow& row : dev.rows) interfaces.emplace_back(row.name);
  return std::make_unique<DeviceCollector<NetDev, ParseNetDev>>(
      context.members[0], std::move(file), std::move(interfaces));
}

}  // namespace pm
