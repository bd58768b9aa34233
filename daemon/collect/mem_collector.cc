// "mem": /proc/meminfo, a fixed set of keys.
#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_meminfo.hh"

namespace pm {
namespace {

class MemCollector final : public Collector {
 public:
  explicit MemCollector(ProcFile file) : file_(std::move(file)) {}

  void Describe(std::string& out) const override {
    AppendMember(out, "mem");
    out.append("{\"fields\":");
    AppendStringArray(out, kMemFields);
    out.push_back('}');
  }

  void Read() override { ParseMeminfo(file_.Read(), info_, file_.name()); }

  void Append(std::string& out) const override {
    AppendMember(out, "mem");
    AppendCounters(out, info_.values);
  }

 private:
  ProcFile file_;
  MemInfo info_;
};

}  // namespace

std::unique_ptr<Collector> MakeMemCollector(int root_dirfd) {
  auto collector = std::make_unique<MemCollector>(ProcFile(
      root_dirfd, "proc/meminfo", ProcFile::kDefaultMaxBytes, ProcFile::Delivery::kWhole));
  collector->Read();  // a malformed file is a setup error, not a sampling one
  return collector;
}

}  // namespace pm
