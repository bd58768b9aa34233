// "load": /proc/loadavg, and procs_running and procs_blocked from a read
// of /proc/stat of its own (the cpu collector's may be off). A tree
// without loadavg (a --root that has none) records null, as `stat` turns
// the collector on for every root.
#include <optional>
#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_loadavg.hh"

namespace pm {
namespace {

class LoadCollector final : public Collector {
 public:
  LoadCollector(const PgrMember& member, std::optional<ProcFile> loadavg, ProcFile stat)
      : member_(member), loadavg_(std::move(loadavg)), stat_(std::move(stat)) {}

  void Describe(std::string& out) const override {
    AppendMember(out, member_.key);
    out.append("{\"fields\":");
    AppendStringArray(out, member_.fields);
    out.push_back('}');
  }

  void Read() override {
    if (!loadavg_) return;
    ParseLoadavg(loadavg_->Read(), values_, loadavg_->name());
    ParseProcsLines(stat_.Read(), values_, stat_.name());
  }

  void Append(std::string& out) const override {
    AppendMember(out, member_.key);
    if (loadavg_) AppendCounters(out, values_);
    else out.append("null");
  }

 private:
  const PgrMember& member_;
  std::optional<ProcFile> loadavg_;
  ProcFile stat_;
  LoadValues values_{};
};

}  // namespace

std::unique_ptr<Collector> MakeLoadCollector(CollectorContext& context) {
  int root = context.root_dirfd;
  auto collector = std::make_unique<LoadCollector>(
      context.members[0], OpenIfPresent(root, "proc/loadavg", ProcFile::Delivery::kWhole),
      ProcFile(root, "proc/stat", ProcFile::kDefaultMaxBytes, ProcFile::Delivery::kWhole));
  collector->Read();  // a malformed file is a setup error, not a sampling one
  return collector;
}

}  // namespace pm
