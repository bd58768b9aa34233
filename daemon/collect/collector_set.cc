#include "daemon/collect/collector_set.hh"

#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_stat.hh"

namespace pm {

CollectorSet::CollectorSet(int root_dirfd, const CollectorOptions& opts) {
  // num_core is part of every header, so /proc/stat is read even with the
  // cpu collector off.
  ProcFile stat(root_dirfd, "proc/stat", ProcFile::kDefaultMaxBytes,
                ProcFile::Delivery::kWhole);
  StatSnapshot snap;
  ParseStat(stat.Read(), snap, stat.name());
  num_core_ = static_cast<int>(snap.cores.size());
  if (opts.cpu) {
    std::vector<int> core_ids;
    for (const CoreTimes& core : snap.cores) core_ids.push_back(core.id);
    collectors_.push_back(MakeCpuCollector(std::move(stat), std::move(core_ids)));
  }
  if (opts.disk) collectors_.push_back(MakeDiskCollector(root_dirfd, opts.disks));
  if (opts.net) collectors_.push_back(MakeNetCollector(root_dirfd));
  if (opts.mem) collectors_.push_back(MakeMemCollector(root_dirfd));
  if (opts.intr) collectors_.push_back(MakeIntrCollector(root_dirfd));
}

CollectorSet::~CollectorSet() = default;
CollectorSet::CollectorSet(CollectorSet&&) noexcept = default;
CollectorSet& CollectorSet::operator=(CollectorSet&&) noexcept = default;

std::string CollectorSet::DescribeJson() const {
  std::string out = "{";
  for (const auto& collector : collectors_) collector->Describe(out);
  out.push_back('}');
  return out;
}

void CollectorSet::AppendSample(std::string& line) {
  for (const auto& collector : collectors_) collector->Read();
  for (const auto& collector : collectors_) collector->Append(line);
}

}  // namespace pm
