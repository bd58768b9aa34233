// The sockstat collector (member "sockstat": /proc/net/sockstat) in every
// output, as sar -n SOCK names its columns:
//   play     "sockstat":{"totsck" "tcpsck" "udpsck" "rawsck" "ip_frag"
//            "tcp_tw"} (levels: the later sample's counts)
//   summary  "Sockets"; --json its "sockstat" at the span's end
//   csv      sockstat.<key>
//   metrics  node_sockstat_<field> (node_exporter's names, gauges)
//   plot     sockets.dat; chart sockets
// Only the fields the recording's kernel printed.
#include "playback/reports/field_rates.hh"
#include "playback/reports/plot_chart.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/sockstat.hh"

namespace pm {
namespace {

const size_t kMember = MemberIndexOf("sockstat");
enum SockstatField { kUsed, kTcp, kUdp, kRaw, kFrag, kTimeWait };
static_assert(kSockstatFields[kTimeWait] == "TCP_tw" && kSockstatFields[kFrag] == "FRAG_inuse");

using enum RateKind;
constexpr RateKey kKeys[] = {
    {"totsck", kUsed, kLevel, "sockets used", "(last sample)"},
    {"tcpsck", kTcp, kLevel, "TCP in use", "(last sample)"},
    {"udpsck", kUdp, kLevel, "UDP in use", "(last sample)"},
    {"rawsck", kRaw, kLevel, "raw in use", "(last sample)"},
    {"ip_frag", kFrag, kLevel, "IP fragments queued", "(last sample)"},
    {"tcp_tw", kTimeWait, kLevel, "TCP in TIME_WAIT", "(last sample)"},
};
constexpr RateGroup kGroups[] = {{"", kKeys}};
constexpr const RateKey* kPlotted[] = {&kKeys[0], &kKeys[1], &kKeys[2], &kKeys[5]};
// live: sar -n SOCK's totsck, tcpsck and tcp-tw.
constexpr LiveColumn kLiveColumns[] = {{"sck", 5, LiveUnit::kCount},
                                       {"tcp", 5, LiveUnit::kCount},
                                       {"tw", 5, LiveUnit::kCount}};
constexpr RateColumn kLiveKeys[] = {{&kKeys[0]}, {&kKeys[1]}, {&kKeys[5]}};
static_assert(std::size(kLiveColumns) == std::size(kLiveKeys));
constexpr RateTable kTable = {&kMember,          "sockstat", "Sockets", kGroups,
                              "node_sockstat_", kPlotted,   "# sockets",
                              "sockets",        kLiveColumns, kLiveKeys};

using Slots = RateSlots<kTable>;
constexpr PlotFileSpec kFiles[] = {
    {"sockets.dat", "# elapsed_time\ttotsck\ttcpsck\tudpsck\ttcp-tw\n"}};
constexpr ChartLine kLines[] = {{"sockets used", "$2"}, {"TCP in use", "$3"},
                                {"UDP in use", "$4"},   {"TCP in TIME_WAIT", "$5", true}};
constexpr ChartSpec kCharts[] = {
    {.name = "sockets", .title = "Sockets (sar -n SOCK)", .ylabel = "sockets", .lines = kLines},
};
constexpr PlotSlot kPlot = {kFiles, Slots::PlotPair, kCharts};

}  // namespace

extern const Report kSockstatReport;
constexpr Report kSockstatReport = Slots::Report(&kPlot);

}  // namespace pm
