#include "playback/openmetrics_catalog.hh"

#include "playback/column_spool.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

enum : uint32_t { kCpu = 0, kGuest, kCtxt, kForks, kIntr, kDisk0, kNet0 = kDisk0 + 11,
                  kMem0 = kNet0 + 16, kFamilies = kMem0 + 30 };

struct Spec {
  const char* name;
  bool counter;
  const char* unit;
  const char* help;
  Scale scale;
};

// In kDiskFields order; help texts as node_exporter words them.
constexpr Spec kDiskSpecs[11] = {
    {"node_disk_reads_completed", true, "", "The total number of reads completed successfully.", Scale::kOne},
    {"node_disk_reads_merged", true, "", "The total number of reads merged.", Scale::kOne},
    {"node_disk_read_bytes", true, "bytes", "The total number of bytes read successfully.", Scale::kTimes512},
    {"node_disk_read_time_seconds", true, "seconds", "The total number of seconds spent by all reads.", Scale::kPerThousand},
    {"node_disk_writes_completed", true, "", "The total number of writes completed successfully.", Scale::kOne},
    {"node_disk_writes_merged", true, "", "The number of writes merged.", Scale::kOne},
    {"node_disk_written_bytes", true, "bytes", "The total number of bytes written successfully.", Scale::kTimes512},
    {"node_disk_write_time_seconds", true, "seconds", "This is the total number of seconds spent by all writes.", Scale::kPerThousand},
    {"node_disk_io_now", false, "", "The number of I/Os currently in progress.", Scale::kOne},
    {"node_disk_io_time_seconds", true, "seconds", "Total seconds spent doing I/Os.", Scale::kPerThousand},
    {"node_disk_io_time_weighted_seconds", true, "seconds", "The weighted # of seconds spent doing I/Os.", Scale::kPerThousand},
};

constexpr const char* kCpuModes[8] = {"user", "nice", "system", "idle",
                                      "iowait", "irq", "softirq", "steal"};

bool IsHugePageCount(std::string_view field) {
  return field.starts_with("HugePages_");
}

// rx_bytes -> receive_bytes, tx_colls -> transmit_colls
std::string NetName(std::string_view field) {
  return std::string(field.starts_with("rx_") ? "receive_" : "transmit_") +
         std::string(field.substr(3));
}

Scale DiskScale(size_t i) { return kDiskSpecs[i].scale; }

}  // namespace

MetricCatalog::MetricCatalog(std::string common_labels, const DiskFilter* disk_only)
    : common_(std::move(common_labels)), disk_only_(disk_only), families_(kFamilies) {
  families_[kCpu] = {"node_cpu_seconds", true, "seconds", "Seconds the CPUs spent in each mode.", {}};
  families_[kGuest] = {"node_cpu_guest_seconds", true, "seconds",
                       "Seconds the CPUs spent in guests (VMs) for each mode.", {}};
  families_[kCtxt] = {"node_context_switches", true, "", "Total number of context switches.", {}};
  families_[kForks] = {"node_forks", true, "", "Total number of forks.", {}};
  families_[kIntr] = {"perfmonger_interrupts", true, "",
                      "Interrupts per CPU and /proc/interrupts row (irq).", {}};
  for (size_t i = 0; i < 11; ++i) {
    const Spec& s = kDiskSpecs[i];
    families_[kDisk0 + i] = {s.name, s.counter, s.unit, s.help, {}};
  }
  for (size_t i = 0; i < kNetFields.size(); ++i) {
    std::string stat = NetName(kNetFields[i]);
    bool bytes = stat.ends_with("_bytes");
    families_[kNet0 + i] = {"node_network_" + stat, true, bytes ? "bytes" : "",
                            "Network device statistic " + stat + ".", {}};
  }
  for (size_t i = 0; i < kMemFields.size(); ++i) {
    std::string field(kMemFields[i]);
    bool count = IsHugePageCount(field);
    std::string suffix = count ? "" : "_bytes";
    families_[kMem0 + i] = {"node_memory_" + field + suffix, false, count ? "" : "bytes",
                            "Memory information field " + field + suffix + ".", {}};
  }
}

uint32_t MetricCatalog::Add(uint32_t family, Scale scale, const std::string& labels) {
  std::string text;
  if (!labels.empty() || !common_.empty()) {
    text = "{" + labels;
    if (!labels.empty() && !common_.empty()) text.push_back(',');
    text += common_ + "}";
  }
  auto id = static_cast<uint32_t>(series_.size());
  series_.push_back({family, scale, std::move(text)});
  families_[family].series.push_back(id);
  if (row_ != nullptr) row_->resize(1 + series_.size(), ColumnSpool::kAbsent);
  return id;
}

uint32_t MetricCatalog::CoreBase(size_t core) {
  if (core >= core_bases_.size()) core_bases_.resize(core + 1, -1);
  if (core_bases_[core] >= 0) return static_cast<uint32_t>(core_bases_[core]);
  std::string cpu;
  AppendLabel(cpu, "cpu", std::to_string(core));
  uint32_t base = 0;
  for (size_t m = 0; m < 8; ++m) {
    std::string labels = cpu + ",";
    AppendLabel(labels, "mode", kCpuModes[m]);
    uint32_t id = Add(kCpu, Scale::kPerHundred, labels);
    if (m == 0) base = id;
  }
  Add(kGuest, Scale::kPerHundred, cpu + ",mode=\"user\"");
  Add(kGuest, Scale::kPerHundred, cpu + ",mode=\"nice\"");
  core_bases_[core] = base;
  return base;
}

uint32_t MetricCatalog::DeviceBase(std::unordered_map<std::string, int64_t>& bases,
                                   const std::string& name, bool disk) {
  auto [it, fresh] = bases.try_emplace(name, -1);
  if (!fresh) return static_cast<uint32_t>(it->second);
  if (disk && disk_only_ != nullptr && !disk_only_->Keeps(name))
    return UINT32_MAX;  // stays -1: left out
  std::string device;
  AppendLabel(device, "device", name);
  size_t n = disk ? 11 : 16;
  uint32_t base = 0;
  for (size_t i = 0; i < n; ++i) {
    uint32_t id = disk ? Add(kDisk0 + static_cast<uint32_t>(i), DiskScale(i), device)
                       : Add(kNet0 + static_cast<uint32_t>(i), Scale::kOne, device);
    if (i == 0) base = id;
  }
  it->second = base;
  return base;
}

uint32_t MetricCatalog::IntrId(const std::string& irq, size_t cpu) {
  std::vector<int64_t>& ids = intr_ids_[irq];
  if (cpu >= ids.size()) ids.resize(cpu + 1, -1);
  if (ids[cpu] < 0) {
    std::string labels;
    AppendLabel(labels, "cpu", std::to_string(cpu));
    labels.push_back(',');
    AppendLabel(labels, "irq", irq);
    ids[cpu] = Add(kIntr, Scale::kOne, labels);
  }
  return static_cast<uint32_t>(ids[cpu]);
}

uint32_t MetricCatalog::MemBase() {
  if (mem_base_ < 0) {
    mem_base_ = Add(kMem0, Scale::kTimes1024, "");
    for (uint32_t i = 1; i < kMemFields.size(); ++i)
      Add(kMem0 + i, IsHugePageCount(kMemFields[i]) ? Scale::kOne : Scale::kTimes1024, "");
  }
  return static_cast<uint32_t>(mem_base_);
}

uint32_t MetricCatalog::ProcBase() {
  if (proc_base_ < 0) {
    proc_base_ = Add(kCtxt, Scale::kOne, "");
    Add(kForks, Scale::kOne, "");
  }
  return static_cast<uint32_t>(proc_base_);
}

void MetricCatalog::FillRow(const RawSample& s, std::vector<uint64_t>& row) {
  constexpr size_t kCpuM = PgrMemberIndex("cpu"), kProcM = PgrMemberIndex("proc"),
                   kIntrM = PgrMemberIndex("intr"), kDiskM = PgrMemberIndex("disk"),
                   kNetM = PgrMemberIndex("net"), kMemM = PgrMemberIndex("mem");
  row.assign(1 + series_.size(), ColumnSpool::kAbsent);
  row_ = &row;
  auto put = [&row](uint32_t id, uint64_t v) { row[1 + id] = v; };
  auto put_row = [&](uint32_t base, std::span<const uint64_t> v) {
    for (size_t k = 0; k < v.size(); ++k) put(base + static_cast<uint32_t>(k), v[k]);
  };
  const MemberRows& cpu = s.members[kCpuM];
  for (size_t c = 1; cpu.has && c < cpu.rows(); ++c)
    if (cpu.live(c)) put_row(CoreBase(c - 1), cpu.row(c));
  if (s.members[kProcM].has) put_row(ProcBase(), s.members[kProcM].row(0));
  const MemberRows& intr = s.members[kIntrM];
  for (size_t r = 0; intr.has && r < intr.rows(); ++r) {
    if (!intr.live(r)) continue;
    std::span<const uint64_t> counts = intr.row(r);
    for (size_t c = 0; c < counts.size(); ++c) put(IntrId(intr.names[r], c), counts[c]);
  }
  const MemberRows& disk = s.members[kDiskM];
  for (size_t d = 0; disk.has && d < disk.rows(); ++d) {
    if (!disk.live(d)) continue;
    uint32_t base = DeviceBase(disk_bases_, disk.names[d], true);
    if (base != UINT32_MAX) put_row(base, disk.row(d));
  }
  const MemberRows& net = s.members[kNetM];
  for (size_t n = 0; net.has && n < net.rows(); ++n)
    if (net.live(n)) put_row(DeviceBase(net_bases_, net.names[n], false), net.row(n));
  if (s.members[kMemM].has) put_row(MemBase(), s.members[kMemM].row(0));
  row_ = nullptr;
}

}  // namespace pm
