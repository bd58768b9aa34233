// "net": /proc/net/dev, every interface present at start (lo too).
#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_net_dev.hh"

namespace pm {
namespace {

class NetCollector final : public Collector {
 public:
  NetCollector(ProcFile file, std::vector<std::string> interfaces)
      : file_(std::move(file)), slots_(std::move(interfaces), kNetFields.size()) {}

  void Describe(std::string& out) const override {
    AppendMember(out, "net");
    out.append("{\"fields\":");
    AppendStringArray(out, kNetFields);
    out.append(",\"devices\":");
    AppendStringArray(out, slots_.names());
    out.push_back('}');
  }

  void Read() override {
    ParseNetDev(file_.Read(), dev_, file_.name());
    slots_.Match(dev_.rows, [&](size_t i) { return dev_.rows[i].counters.data(); });
  }

  void Append(std::string& out) const override {
    AppendMember(out, "net");
    slots_.AppendRows(out);
  }

 private:
  ProcFile file_;
  NetDev dev_;
  RowSlots slots_;
};

}  // namespace

std::unique_ptr<Collector> MakeNetCollector(int root_dirfd) {
  ProcFile file(root_dirfd, "proc/net/dev");
  NetDev dev;
  ParseNetDev(file.Read(), dev, file.name());
  std::vector<std::string> interfaces;
  for (const NetRow& row : dev.rows) interfaces.emplace_back(row.name);
  return std::make_unique<NetCollector>(std::move(file), std::move(interfaces));
}

}  // namespace pm
