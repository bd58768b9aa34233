#include "daemon/collect/fields_collector.hh"

#include <optional>
#include <utility>
#include <vector>

namespace pm {
namespace {

class FieldsCollector final : public Collector {
 public:
  FieldsCollector(const PgrMember& member, const FieldsTable& table, int root_dirfd)
      : member_(member), table_(table), matcher_(member.fields, table.zoned) {
    for (const FieldsFile& f : table.files)
      files_.push_back(OpenIfPresent(root_dirfd, f.path, f.delivery));
    Read();
    fields_.emplace(member_.fields, values_.present);
  }

  void Describe(std::string& out) const override { fields_->Describe(out, member_.key); }

  void Read() override {
    values_.Reset(matcher_.size());
    for (size_t i = 0; i < files_.size(); ++i)
      if (files_[i])
        ParseFields(files_[i]->Read(), table_.files[i].layout, matcher_, values_,
                    files_[i]->name());
  }

  void Append(std::string& out) const override {
    fields_->Append(out, member_.key,
                    recorded() ? std::span<const uint64_t>(values_.values)
                               : std::span<const uint64_t>());
  }

 private:
  bool recorded() const { return !files_.empty() && files_.front().has_value(); }

  const PgrMember& member_;
  const FieldsTable& table_;
  FieldMatcher matcher_;
  std::vector<std::optional<ProcFile>> files_;
  FieldValues values_;
  std::optional<PresentFields> fields_;  // as the first read found them
};

}  // namespace

std::unique_ptr<Collector> MakeFieldsCollector(CollectorContext& context,
                                               const FieldsTable& table) {
  return std::make_unique<FieldsCollector>(context.members[0], table, context.root_dirfd);
}

}  // namespace pm
