// "intr": /proc/interrupts, the sources and CPU columns present at start.
#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_interrupts.hh"

namespace pm {
namespace {

class IntrCollector final : public Collector {
 public:
  IntrCollector(const PgrMember& member, ProcFile file, std::vector<int> cpus,
                std::vector<std::string> names, std::vector<std::string> descrs)
      : member_(member), file_(std::move(file)), cpus_(std::move(cpus)), descrs_(std::move(descrs)),
        slots_(std::move(names), cpus_.size()) {}

  void Describe(std::string& out) const override {
    AppendMember(out, member_.key);
    out.append("{\"cpus\":");
    AppendUint(out, cpus_.size());
    out.append(",\"rows\":[");
    for (size_t i = 0; i < descrs_.size(); ++i) {
      if (i != 0) out.push_back(',');
      out.append("{\"irq\":");
      AppendJsonString(out, slots_.names()[i]);
      out.append(",\"descr\":");
      AppendJsonString(out, descrs_[i]);
      out.push_back('}');
    }
    out.append("]}");
  }

  void Read() override {
    ParseInterrupts(file_.Read(), intr_, file_.name());
    if (intr_.cpus != cpus_) {
      // CPUs came or went: the columns no longer line up with the header.
      slots_.MarkAllAbsent();
      return;
    }
    slots_.Match(intr_.rows, [&](size_t i) { return intr_.RowCounts(i).data(); });
  }

  void Append(std::string& out) const override {
    AppendMember(out, member_.key);
    slots_.AppendRows(out);
  }

 private:
  const PgrMember& member_;
  ProcFile file_;
  std::vector<int> cpus_;  // CPU ids of the columns, fixed at start
  std::vector<std::string> descrs_;
  Interrupts intr_;
  RowSlots slots_;
};

}  // namespace

std::unique_ptr<Collector> MakeIntrCollector(CollectorContext& context) {
  int root_dirfd = context.root_dirfd;
  ProcFile file(root_dirfd, "proc/interrupts");
  Interrupts intr;
  ParseInterrupts(file.Read(), intr, file.name());
  std::vector<std::string> names;
  std::vector<std::string> descrs;
  for (const IntrRow& row : intr.rows) {
    names.emplace_back(row.name);
    descrs.push_back(CollapseBlanks(row.descr));
  }
  return std::make_unique<IntrCollector>(context.members[0], std::move(file),
                                         std::move(intr.cpus), std::move(names),
                                         std::move(descrs));
}

}  // namespace pm
