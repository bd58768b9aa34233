#include "daemon/collect/collector_set.hh"

#include <iterator>
#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_stat.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

// The factories, in kCollectors order: the recorder's side of each
// descriptor. Adding a collector adds its line.
struct Factory {
  std::string_view name;  // its descriptor's
  std::unique_ptr<Collector> (*make)(CollectorContext&);
};
constexpr Factory kFactories[] = {
    {"cpu", MakeCpuCollector},
    {"intr", MakeIntrCollector},
    {"disk", MakeDiskCollector},
    {"net", MakeNetCollector},
    {"mem", MakeMemCollector},
    {"pressure", MakePressureCollector},
    {"load", MakeLoadCollector},
    {"vmstat", MakeVmstatCollector},
    {"netstat", MakeNetstatCollector},
    {"sockstat", MakeSockstatCollector},
    {"procs", MakeProcessCollector},
    {"cgroups", MakeCgroupCollector},
};

static_assert(std::size(kFactories) == kCollectors.size(), "one factory per collector");

static_assert(InCollectorOrder(kFactories), "factories in kCollectors order");

}  // namespace

CollectorOptions::CollectorOptions() : values(kCollectors.size()) {
  for (const CollectorSpec& c : kCollectors) enabled.push_back(c.on_by_default);
}

CollectorSet::CollectorSet(int root_dirfd, const CollectorOptions& opts) {
  // num_core is part of every header, so /proc/stat is read even with the
  // cpu collector off; the cpu collector then keeps the open file.
  ProcFile stat(root_dirfd, "proc/stat", ProcFile::kDefaultMaxBytes, ProcFile::Delivery::kWhole);
  StatSnapshot snapshot;
  ParseStat(stat.Read(), snapshot, stat.name());
  num_core_ = static_cast<int>(snapshot.cores.size());
  CollectorContext context{root_dirfd, opts, std::move(stat), snapshot};
  for (size_t i = 0; i < kCollectors.size(); ++i) {
    if (!opts.enabled[i]) continue;
    context.members = kCollectors[i].members;
    context.values = opts.values[i];
    collectors_.push_back(kFactories[i].make(context));
  }
}

CollectorSet::~CollectorSet() = default;

std::string CollectorSet::DescribeJson() const {
  std::string out = "{";
  for (const auto& collector : collectors_) collector->Describe(out);
  out.push_back('}');
  return out;
}

void CollectorSet::BindCommand(int pid) {
  for (const auto& collector : collectors_) collector->BindCommand(pid);
}

SutCost CollectorSet::ClosePhase() {
  SutCost cost;
  for (const auto& collector : collectors_) collector->ClosePhase(cost);
  return cost;
}

void CollectorSet::AppendSample(std::string& line) {
  for (const auto& collector : collectors_)
    if (collector->fine_grained()) collector->Read();
  for (const auto& collector : collectors_)
    if (!collector->fine_grained()) collector->Read();
  for (const auto& collector : collectors_) collector->Append(line);
}

}  // namespace pm
