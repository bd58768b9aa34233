// "netstat": /proc/net/snmp's Tcp and Udp and /proc/net/netstat's TcpExt,
// read by the names on each protocol's header line. The header declares
// the ones the kernel printed at the start. A tree without net/snmp
// records null (`stat` turns the collector on for every root); one without
// net/netstat (a kernel built without it) records the snmp counters.
#include <optional>
#include <utility>

#include "daemon/collect/collector.hh"
#include "daemon/collect/parse_snmp.hh"

namespace pm {
namespace {

NetstatValues Parsed(std::optional<ProcFile>& snmp, std::optional<ProcFile>& netstat) {
  NetstatValues v;
  if (!snmp) return v;
  ParseSnmp(snmp->Read(), v, snmp->name());
  if (netstat) ParseSnmp(netstat->Read(), v, netstat->name());
  return v;
}

class NetstatCollector final : public Collector {
 public:
  NetstatCollector(const PgrMember& member, std::optional<ProcFile> snmp,
                   std::optional<ProcFile> netstat)
      : member_(member),
        snmp_(std::move(snmp)),
        netstat_(std::move(netstat)),
        values_(Parsed(snmp_, netstat_)) {}  // a malformed file is a setup error

  void Describe(std::string& out) const override { fields_.Describe(out, member_.key); }

  void Read() override { values_ = Parsed(snmp_, netstat_); }

  void Append(std::string& out) const override {
    fields_.Append(out, member_.key, snmp_ ? std::span<const uint64_t>(values_.values)
                                        : std::span<const uint64_t>());
  }

 private:
  const PgrMember& member_;
  std::optional<ProcFile> snmp_, netstat_;
  NetstatValues values_;
  PresentFields fields_{member_.fields, values_.present};
};

}  // namespace

std::unique_ptr<Collector> MakeNetstatCollector(CollectorContext& context) {
  int root = context.root_dirfd;
  constexpr ProcFile::Delivery kWhole = ProcFile::Delivery::kWhole;  // single_open shows
  return std::make_unique<NetstatCollector>(context.members[0],
                                            OpenIfPresent(root, "proc/net/snmp", kWhole),
                                            OpenIfPresent(root, "proc/net/netstat", kWhole));
}

}  // namespace pm
