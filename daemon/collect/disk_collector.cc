// "disk": /proc/diskstats, for the devices chosen at start (compat §2).
#include <sys/stat.h>
#include <fcntl.h>

#include <algorithm>
#include <utility>

#include "common/error.hh"
#include "daemon/collect/device_collector.hh"
#include "daemon/collect/parse_diskstats.hh"
#include "proto/columns/disk.hh"

namespace pm {
namespace {

// /sys/block/<name> exists only for whole devices, not partitions. Names
// with '/' (cciss/c0d0) appear there with '!' (cciss!c0d0).
bool IsWholeDevice(int root_dirfd, std::string_view name) {
  std::string entry(name);
  std::replace(entry.begin(), entry.end(), '/', '!');
  std::string path = "sys/block/" + entry;
  struct stat st;
  return ::fstatat(root_dirfd, path.c_str(), &st, 0) == 0;
}

// Without `wanted`: whole devices that have done I/O since boot. With it:
// exactly the named devices (even idle ones: a user who names a device
// wants it), each of which must exist. Either way in file order.
std::vector<std::string> SelectDisks(const DiskStats& stats, int root_dirfd,
                                     const std::vector<std::string>& wanted,
                                     const std::string& source) {
  for (const std::string& name : wanted) {
    size_t hint = 0;
    if (FindRow(stats.rows, name, [](const DiskRow& r) { return r.name; }, hint) < 0) {
      throw UsageError("no disk named '" + name + "' in " + source +
                       "; name one listed there");
    }
  }
  std::vector<std::string> chosen;
  for (const DiskRow& row : stats.rows) {
    bool pick = wanted.empty()
                    ? row.reads() + row.writes() > 0 && IsWholeDevice(root_dirfd, row.name)
                    : std::find(wanted.begin(), wanted.end(), row.name) != wanted.end();
    if (pick) chosen.emplace_back(row.name);
  }
  return chosen;
}

// The counters every chosen device's line has, as kDiskFields' prefixes
// (11, 15 with discards, 17 with flushes too): what the header declares,
// so a kernel without them records them absent rather than zero.
size_t CommonWidth(const DiskStats& stats, const std::vector<std::string>& devices) {
  size_t width = kDiskFields.size();
  for (const DiskRow& row : stats.rows) {
    if (!devices.empty() && std::find(devices.begin(), devices.end(), row.name) == devices.end())
      continue;
    width = std::min(width, row.fields);
  }
  if (width >= kDiskFields.size()) return kDiskFields.size();
  return width >= kDiskDiscardFields ? kDiskDiscardFields : kDiskBaseFields;
}

}  // namespace

std::unique_ptr<Collector> MakeDiskCollector(CollectorContext& context) {
  int root_dirfd = context.root_dirfd;
  const std::vector<std::string>& wanted = context.options.disks;
  ProcFile file(root_dirfd, "proc/diskstats");
  DiskStats stats;
  ParseDiskstats(file.Read(), stats, file.name());
  std::vector<std::string> devices = SelectDisks(stats, root_dirfd, wanted, file.name());
  size_t width = CommonWidth(stats, devices);
  return std::make_unique<DeviceCollector<DiskStats, ParseDiskstats>>(
      context.members[0], std::move(file), std::move(devices), width);
}

}  // namespace pm
