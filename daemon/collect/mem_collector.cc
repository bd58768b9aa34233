// "mem": /proc/meminfo, a fixed set of keys.
#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_meminfo.hh"

namespace pm {
namespace {

class MemCollector final : public Collector {
 public:
  MemCollector(const PgrMember& member, ProcFile file)
      : member_(member), file_(std::move(file)) {}

  void Describe(std::string& out) const override {
    AppendMember(out, member_.key);
    out.append("{\"fields\":");
    AppendStringArray(out, member_.fields);
    out.push_back('}');
  }

  void Read() override { ParseMeminfo(file_.Read(), info_, file_.name()); }

  // A meminfo that vanished (emptied, or no key we record) is `null`, as a
  // vanished disk or core is: zeros would read as a machine without memory.
  void Append(std::string& out) const override {
    AppendMember(out, member_.key);
    if (info_.present) AppendCounters(out, info_.values);
    else out.append("null");
  }

 private:
  const PgrMember& member_;
  ProcFile file_;
  MemInfo info_;
};

}  // namespace

std::unique_ptr<Collector> MakeMemCollector(CollectorContext& context) {
  int root_dirfd = context.root_dirfd;
  auto collector = std::make_unique<MemCollector>(context.members[0], ProcFile(
      root_dirfd, "proc/meminfo", ProcFile::kDefaultMaxBytes, ProcFile::Delivery::kWhole));
  collector->Read();  // a malformed file is a setup error, not a sampling one
  return collector;
}

}  // namespace pm
