#include "daemon/collect/cpu_fine.hh"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <system_error>
#include <utility>

#include "common/error.hh"
#include "daemon/collect/cgroup_mount.hh"
#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_cgroup.hh"
#include "proto/columns/cpu.hh"

namespace pm {
namespace {

using namespace cpu_fine_field;

constexpr std::string_view kCgroupKeys[] = {"usage_usec", "user_usec", "system_usec",
                                            "nice_usec"};
constexpr int64_t kNsPerUs = 1000;
constexpr int64_t kStatTickNs = 10'000'000;  // USER_HZ 100
constexpr std::string_view kCpuidleFile = "/sys/devices/system/cpu/cpu*/cpuidle/state*/time";

std::string IdleStatePath(int core, int state) {
  return "sys/devices/system/cpu/cpu" + std::to_string(core) + "/cpuidle/state" +
         std::to_string(state) + "/time";
}

std::string_view FieldName(size_t f) { return kCpuFineFields[f]; }

}  // namespace

int64_t KernelTickNs() {
  timespec res{};
  if (::clock_getres(CLOCK_MONOTONIC_COARSE, &res) != 0 || res.tv_sec != 0 || res.tv_nsec <= 0)
    return kStatTickNs;  // not a kernel of these years: /proc/stat's tick, the coarsest
  return res.tv_nsec;
}

std::vector<CpuSourceEntry> CgroupCpuSources(std::vector<std::string_view> fields,
                                             const std::string& file, bool kernel_root,
                                             int64_t tick_ns) {
  std::vector<CpuSourceEntry> out;
  if (!kernel_root) {
    out.push_back({{fields.front()}, true, false, file, kNsPerUs});
    fields.erase(fields.begin());
  }
  out.push_back({std::move(fields), true, false, file, tick_ns});
  return out;
}

void AppendCpuSources(std::string& out, std::span<const CpuSourceEntry> sources) {
  out.append(",\"sources\":[");
  for (const CpuSourceEntry& s : sources) {
    if (out.back() != '[') out.push_back(',');
    out.append("{\"fields\":");
    AppendStringArray(out, s.fields);
    out.append(",\"rows\":[");
    if (s.all) out.append("\"all\"");
    if (s.all && s.cores) out.push_back(',');
    if (s.cores) out.append("\"cores\"");
    out.append("],\"file\":");
    AppendJsonString(out, s.file);
    out.append(",\"resolution_ns\":");
    AppendInt(out, s.resolution_ns);
    out.push_back('}');
  }
  out.push_back(']');
}

CpuFineSources::CpuFineSources(int root_dirfd, std::span<const int> core_ids)
    : core_ids_(core_ids.begin(), core_ids.end()),
      rows_(core_ids.size() + 1),
      live_(core_ids.size() + 1, 0) {
  OpenCgroup(root_dirfd);
  OpenSchedstat(root_dirfd);
  OpenCpuidle(root_dirfd);
  for (size_t f = 0; f < kCpuFineFields.size(); ++f)
    for (const CpuSourceEntry& s : sources_)
      if (std::find(s.fields.begin(), s.fields.end(), kCpuFineFields[f]) != s.fields.end()) {
        declared_.push_back(f);
        break;
      }
}

void CpuFineSources::OpenCgroup(int root_dirfd) {
  std::optional<std::string> mount = Cgroup2Mount(root_dirfd);
  if (!mount) return;
  cgroup_ = OpenIfPresent(root_dirfd, *mount + "/cpu.stat", ProcFile::Delivery::kWhole);
  if (!cgroup_) return;
  std::array<uint64_t, std::size(kCgroupKeys)> usec{};
  std::array<bool, std::size(kCgroupKeys)> found{};
  ParseFlatKeyed(cgroup_->Read(), kCgroupKeys, usec, cgroup_->name(), found);
  if (!found[0] || !found[1] || !found[2]) {  // not a cpu.stat this reader knows
    cgroup_.reset();
    return;
  }
  cgroup_nice_ = found[3];
  std::vector<std::string_view> fields = {FieldName(kBusy), FieldName(kUser), FieldName(kSystem)};
  if (cgroup_nice_) fields.push_back(FieldName(kNice));
  // Only groups below the kernel's root have cgroup.events (CFTYPE_NOT_ON_ROOT).
  const bool kernel_root =
      ::faccessat(root_dirfd, (*mount + "/cgroup.events").c_str(), F_OK, 0) != 0;
  for (CpuSourceEntry& s :
       CgroupCpuSources(std::move(fields), "/" + *mount + "/cpu.stat", kernel_root, KernelTickNs()))
    sources_.push_back(std::move(s));
}

void CpuFineSources::OpenSchedstat(int root_dirfd) {
  schedstat_ = OpenIfPresent(root_dirfd, "proc/schedstat", ProcFile::Delivery::kRecords);
  if (!schedstat_) return;
  try {
    ParseSchedstat(schedstat_->Read(), sched_snap_, schedstat_->name());
  } catch (const FormatError&) {
    schedstat_.reset();  // another version: the other sources stand
    return;
  }
  const std::vector<std::string_view> both = {FieldName(kBusy), FieldName(kRunDelay)};
  // Row "all" sums the cores; its busy time is the cgroup root's if there is one.
  if (cgroup_) {
    sources_.push_back({both, false, true, "/proc/schedstat", 1});
    sources_.push_back({{FieldName(kRunDelay)}, true, false, "/proc/schedstat", 1});
  } else {
    sources_.push_back({both, true, true, "/proc/schedstat", 1});
  }
}

void CpuFineSources::OpenCpuidle(int root_dirfd) {
  std::vector<std::vector<ProcFile>> states(core_ids_.size());
  for (size_t i = 0; i < core_ids_.size(); ++i) {
    for (int k = 0;; ++k) {
      std::optional<ProcFile> f =
          OpenIfPresent(root_dirfd, IdleStatePath(core_ids_[i], k), ProcFile::Delivery::kWhole);
      if (!f) break;
      states[i].push_back(std::move(*f));
    }
    if (states[i].empty()) return;  // a core without cpuidle: the source is not whole
  }
  if (core_ids_.empty()) return;
  idle_states_ = std::move(states);
  sources_.push_back({{FieldName(kIdle)}, true, true, std::string(kCpuidleFile), kNsPerUs});
}

void CpuFineSources::Describe(std::string& out, std::string_view key) const {
  AppendMember(out, key);
  out.append("{\"fields\":");
  AppendStringArray(out, declared_, [](size_t f) { return kCpuFineFields[f]; });
  out.append(",\"cores\":[");
  for (size_t i = 0; i < core_ids_.size(); ++i) {
    if (i != 0) out.push_back(',');
    AppendInt(out, core_ids_[i]);
  }
  out.push_back(']');
  AppendCpuSources(out, sources_);
  out.push_back('}');
}

void CpuFineSources::Read() {
  for (Row& r : rows_) r.fill(0);
  live_[0] = 1;
  const bool per_core = schedstat_ || !idle_states_.empty();
  std::fill(live_.begin() + 1, live_.end(), per_core ? 1 : 0);
  if (cgroup_) ReadCgroup();
  if (schedstat_) ReadSchedstat();
  if (!idle_states_.empty()) ReadCpuidle();
}

void CpuFineSources::ReadCgroup() {
  std::array<uint64_t, std::size(kCgroupKeys)> usec{};
  ParseFlatKeyed(cgroup_->Read(), kCgroupKeys, usec, cgroup_->name());
  Row& all = rows_[0];
  all[kBusy] = usec[0] * kNsPerUs;
  all[kUser] = usec[1] * kNsPerUs;
  all[kSystem] = usec[2] * kNsPerUs;
  all[kNice] = usec[3] * kNsPerUs;
}

void CpuFineSources::ReadSchedstat() {
  ParseSchedstat(schedstat_->Read(), sched_snap_, schedstat_->name());
  Row& all = rows_[0];
  size_t hint = 0;
  for (size_t i = 0; i < core_ids_.size(); ++i) {
    ptrdiff_t j = FindRow(sched_snap_.cpus, core_ids_[i],
                          [](const SchedstatCpu& c) { return c.id; }, hint);
    if (j < 0) {
      live_[i + 1] = 0;  // offline
      continue;
    }
    const SchedstatCpu& c = sched_snap_.cpus[static_cast<size_t>(j)];
    rows_[i + 1][kBusy] = c.run_ns;
    rows_[i + 1][kRunDelay] = c.wait_ns;
    if (!cgroup_) all[kBusy] += c.run_ns;
    all[kRunDelay] += c.wait_ns;
  }
}

// A CPU taken offline loses its cpuidle directory: reading its open
// files fails (ENODEV): its row is null from then on (the files opened at
// the start are gone for good).
void CpuFineSources::ReadCpuidle() {
  for (size_t i = 0; i < idle_states_.size(); ++i) {
    uint64_t us = 0;
    try {
      for (ProcFile& f : idle_states_[i]) us += ParseSingleValue(f.Read(), f.name());
    } catch (const std::system_error&) {
      live_[i + 1] = 0;
      continue;
    }
    rows_[i + 1][kIdle] = us * kNsPerUs;
    rows_[0][kIdle] += us * kNsPerUs;
  }
}

void CpuFineSources::Append(std::string& out, std::string_view key) const {
  AppendMember(out, key);
  out.push_back('[');
  for (size_t r = 0; r < rows_.size(); ++r) {
    if (r != 0) out.push_back(',');
    if (!live_[r]) {
      out.append("null");
      continue;
    }
    out.push_back('[');
    for (size_t k = 0; k < declared_.size(); ++k) {
      if (k != 0) out.push_back(',');
      AppendUint(out, rows_[r][declared_[k]]);
    }
    out.push_back(']');
  }
  out.push_back(']');
}

}  // namespace pm
