// "vmstat": /proc/vmstat's paging and swapping counters. The header
// declares the ones the kernel printed at the start, so a reader shows a
// field an older kernel lacks (oom_kill before 4.13) as absent, not zero.
// A tree without vmstat (a --root that has none) records null, as `stat`
// turns the collector on for every root.
#include <cerrno>
#include <optional>
#include <system_error>
#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_vmstat.hh"

namespace pm {
namespace {

VmstatValues Parsed(std::optional<ProcFile>& file) {
  VmstatValues v;
  if (file) ParseVmstat(file->Read(), v, file->name());
  return v;
}

class VmstatCollector final : public Collector {
 public:
  // The first read learns the fields; a malformed file is a setup error.
  VmstatCollector(const PgrMember& member, std::optional<ProcFile> file)
      : member_(member), file_(std::move(file)), values_(Parsed(file_)) {}

  void Describe(std::string& out) const override { fields_.Describe(out, member_.key); }

  void Read() override {
    if (file_) ParseVmstat(file_->Read(), values_, file_->name());
  }

  void Append(std::string& out) const override {
    fields_.Append(out, member_.key, file_ ? std::span<const uint64_t>(values_.values)
                                        : std::span<const uint64_t>());
  }

 private:
  const PgrMember& member_;
  std::optional<ProcFile> file_;
  VmstatValues values_;
  PresentFields fields_{member_.fields, values_.present};
};

}  // namespace

std::unique_ptr<Collector> MakeVmstatCollector(CollectorContext& context) {
  return std::make_unique<VmstatCollector>(
      context.members[0], OpenIfPresent(context.root_dirfd, "proc/vmstat", ProcFile::Delivery::kRecords));
}

}  // namespace pm
