// "pressure": /proc/pressure/{cpu,io,memory,irq}, one row per "some" or
// "full" line present at the start ("cpu.some", ...). A file the kernel
// does not have (irq before 6.1, all of them without CONFIG_PSI or with
// psi=0) is left out and named once in the header's "absent".
#include <array>
#include <cerrno>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_pressure.hh"

namespace pm {
namespace {

constexpr std::array<std::string_view, 4> kResources = {"cpu", "io", "memory", "irq"};

// The file, or nothing when this kernel has none (ENOENT; EOPNOTSUPP when
// PSI is compiled in but disabled at boot).
std::optional<ProcFile> OpenPressure(int root_dirfd, std::string_view resource) {
  try {
    return ProcFile(root_dirfd, "proc/pressure/" + std::string(resource), 4096,
                    ProcFile::Delivery::kWhole);
  } catch (const std::system_error& e) {
    int err = e.code().value();
    if (err == ENOENT || err == EOPNOTSUPP) return std::nullopt;
    throw;
  }
}

struct Resource {
  ProcFile file;
  int some_row = -1, full_row = -1;  // index in the rows, -1: not recorded
  PressureLines lines;
};

class PressureCollector final : public Collector {
 public:
  explicit PressureCollector(const PgrMember& member) : member_(member) {}
  void Add(std::string_view name, ProcFile file) {
    Resource r{std::move(file), -1, -1, {}};
    ParsePressure(r.file.Read(), r.lines, r.file.name());
    if (r.lines.has_some) r.some_row = AddRow(std::string(name) + ".some");
    if (r.lines.has_full) r.full_row = AddRow(std::string(name) + ".full");
    resources_.push_back(std::move(r));
  }
  void AddAbsent(std::string_view name) { absent_.emplace_back(name); }

  void Describe(std::string& out) const override {
    AppendMember(out, member_.key);
    out.append("{\"fields\":");
    AppendStringArray(out, member_.fields);
    out.append(",\"rows\":");
    AppendStringArray(out, rows_);
    out.append(",\"absent\":");
    AppendStringArray(out, absent_);
    out.push_back('}');
  }

  void Read() override {
    for (Resource& r : resources_) ParsePressure(r.file.Read(), r.lines, r.file.name());
  }

  // A line that is gone from its file is null: 0 would read as no stall.
  void Append(std::string& out) const override {
    AppendMember(out, member_.key);
    out.push_back('[');
    bool first = true;
    auto row = [&](bool present, uint64_t v) {
      if (!first) out.push_back(',');
      first = false;
      if (present) {
        out.push_back('[');
        AppendUint(out, v);
        out.push_back(']');
      } else {
        out.append("null");
      }
    };
    for (const Resource& r : resources_) {
      if (r.some_row >= 0) row(r.lines.has_some, r.lines.some_us);
      if (r.full_row >= 0) row(r.lines.has_full, r.lines.full_us);
    }
    out.push_back(']');
  }

 private:
  int AddRow(std::string name) {
    rows_.push_back(std::move(name));
    return static_cast<int>(rows_.size() - 1);
  }

  const PgrMember& member_;
  std::vector<Resource> resources_;
  std::vector<std::string> rows_;
  std::vector<std::string> absent_;
};

}  // namespace

std::unique_ptr<Collector> MakePressureCollector(CollectorContext& context) {
  auto collector = std::make_unique<PressureCollector>(context.members[0]);
  for (std::string_view name : kResources) {
    std::optional<ProcFile> file = OpenPressure(context.root_dirfd, name);
    if (file) collector->Add(name, std::move(*file));
    else collector->AddAbsent(name);
  }
  return collector;
}

}  // namespace pm
