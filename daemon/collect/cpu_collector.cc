// "cpu" and "proc": both come from one read of /proc/stat; "cpu_fine":
// the finer CPU time the kernel offers besides (cpu_fine.hh), when it
// offers any.
#include <unistd.h>

#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/cpu_fine.hh"
#include "daemon/collect/parse_stat.hh"

namespace pm {
namespace {

class CpuCollector final : public Collector {
 public:
  CpuCollector(std::span<const PgrMember> members, ProcFile file, std::vector<int> core_ids,
               int root_dirfd)
      : cpu_(members[0]), proc_(members[1]), fine_key_(members[2].key), file_(std::move(file)),
        core_ids_(std::move(core_ids)), slots_(core_ids_.size(), nullptr),
        fine_(root_dirfd, core_ids_) {}

  void Describe(std::string& out) const override {
    AppendMember(out, cpu_.key);
    out.append("{\"fields\":");
    AppendStringArray(out, cpu_.fields);
    out.append(",\"cores\":[");
    for (size_t i = 0; i < core_ids_.size(); ++i) {
      if (i != 0) out.push_back(',');
      AppendInt(out, core_ids_[i]);
    }
    out.push_back(']');
    const CpuSourceEntry stat = {{cpu_.fields.begin(), cpu_.fields.end()}, true, true,
                                 "/proc/stat", StatResolutionNs()};
    AppendCpuSources(out, {&stat, 1});
    out.push_back('}');
    AppendMember(out, proc_.key);
    out.append("{\"fields\":");
    AppendStringArray(out, proc_.fields);
    out.push_back('}');
    if (!fine_.empty()) fine_.Describe(out, fine_key_);
  }

  void Read() override {
    ParseStat(file_.Read(), snap_, file_.name());
    if (!fine_.empty()) fine_.Read();
    size_t hint = 0;
    for (size_t i = 0; i < core_ids_.size(); ++i) {
      ptrdiff_t j = FindRow(snap_.cores, core_ids_[i],
                            [](const CoreTimes& c) { return c.id; }, hint);
      slots_[i] = j < 0 ? nullptr : &snap_.cores[static_cast<size_t>(j)].times;
    }
  }

  void Append(std::string& out) const override {
    AppendMember(out, cpu_.key);
    out.push_back('[');
    AppendTimes(out, snap_.has_total ? &snap_.total : nullptr);
    for (const CpuTimes* times : slots_) {
      out.push_back(',');
      AppendTimes(out, times);
    }
    out.push_back(']');
    AppendMember(out, proc_.key);
    uint64_t proc[] = {snap_.ctxt, snap_.processes};
    AppendCounters(out, proc);
    if (!fine_.empty()) fine_.Append(out, fine_key_);
  }

 private:
  // /proc/stat counts in USER_HZ ticks.
  static int64_t StatResolutionNs() {
    const long hz = ::sysconf(_SC_CLK_TCK);
    return hz > 0 ? 1'000'000'000 / hz : 10'000'000;
  }

  static void AppendTimes(std::string& out, const CpuTimes* times) {
    if (times == nullptr) {
      out.append("null");  // an offlined CPU
    } else {
      AppendCounters(out, *times);
    }
  }

  const PgrMember& cpu_;
  const PgrMember& proc_;
  std::string_view fine_key_;
  ProcFile file_;
  std::vector<int> core_ids_;  // the header's "cores", fixed at start
  StatSnapshot snap_;
  std::vector<const CpuTimes*> slots_;  // per core id; nullptr when absent
  CpuFineSources fine_;
};

}  // namespace

std::unique_ptr<Collector> MakeCpuCollector(CollectorContext& context) {
  std::vector<int> core_ids;
  for (const CoreTimes& core : context.stat_snapshot.cores) core_ids.push_back(core.id);
  ProcFile stat = std::move(*context.stat);
  context.stat.reset();
  return std::make_unique<CpuCollector>(context.members, std::move(stat), std::move(core_ids),
                                        context.root_dirfd);
}

}  // namespace pm
