#include "daemon/collect/collector_set.hh"

#include <stdexcept>
#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_stat.hh"

namespace pm {
namespace {

// kCollectors' names -> their factories. Adding a collector adds its line.
struct Factory {
  std::string_view name;
  std::unique_ptr<Collector> (*make)(CollectorContext&);
};
constexpr Factory kFactories[] = {
    {"cpu", MakeCpuCollector}, {"disk", MakeDiskCollector}, {"net", MakeNetCollector},
    {"mem", MakeMemCollector}, {"intr", MakeIntrCollector},
    {"pressure", MakePressureCollector}, {"procs", MakeProcessCollector},
    {"cgroups", MakeCgroupCollector},
};

const Factory& FactoryFor(std::string_view name) {
  for (const Factory& f : kFactories)
    if (f.name == name) return f;
  throw std::logic_error("no factory for collector " + std::string(name));
}

}  // namespace

CollectorSet::CollectorSet(int root_dirfd, const CollectorOptions& opts) {
  // num_core is part of every header, so /proc/stat is read even with the
  // cpu collector off; the cpu collector then keeps the open file.
  CollectorContext context{root_dirfd, opts,
                           ProcFile(root_dirfd, "proc/stat", ProcFile::kDefaultMaxBytes,
                                    ProcFile::Delivery::kWhole),
                           {}};
  ParseStat(context.stat->Read(), context.stat_snapshot, context.stat->name());
  num_core_ = static_cast<int>(context.stat_snapshot.cores.size());
  for (size_t i = 0; i < kCollectors.size(); ++i)
    if (opts.enabled[i]) collectors_.push_back(FactoryFor(kCollectors[i].name).make(context));
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

void CollectorSet::BindCommand(int pid) {
  for (const auto& collector : collectors_) collector->BindCommand(pid);
}

void CollectorSet::AppendSample(std::string& line) {
  for (const auto& collector : collectors_) collector->Read();
  for (const auto& collector : collectors_) collector->Append(line);
}

}  // namespace pm
