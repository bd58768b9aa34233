// The netstat collector (member "netstat": /proc/net/snmp's Tcp and Udp,
// /proc/net/netstat's TcpExt) in every output, as sar -n TCP,ETCP,UDP
// names them:
//   play     "netstat":{"tcp":{"activeps" "passiveps" "isegps" "osegps"
//            "atmptfps" "estresps" "retransps" "isegerrps" "orstsps"
//            "listen_overflowps" "listen_dropps" (per second) "curr_estab"},
//            "udp":{"idgmps" "odgmps" "noportps" "idgmerrps" "rcvbuferrps"
//            "sndbuferrps"}}
//   summary  "TCP and UDP"; --json its "netstat" over the span
//   csv      netstat.tcp.<key>, netstat.udp.<key>
//   metrics  node_netstat_<Proto>_<Name> (node_exporter's names; gauges,
//            as its are untyped)
//   plot     tcp.dat; chart tcp
// Only the fields the recording's kernel printed.
#include "playback/reports/field_rates.hh"
#include "playback/reports/plot_chart.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/netstat.hh"

namespace pm {
namespace {

const size_t kMember = MemberIndexOf("netstat");
enum NetstatField { kActive, kPassive, kAttemptFails, kEstabResets, kInSegs, kOutSegs,
                    kRetrans, kInErrs, kOutRsts, kUdpIn, kUdpOut, kNoPorts, kUdpInErrors,
                    kRcvbuf, kSndbuf, kListenOverflows, kListenDrops, kCurrEstab };
static_assert(kNetstatFields[kCurrEstab] == "Tcp_CurrEstab" &&
              kNetstatFields[kListenDrops] == "TcpExt_ListenDrops" &&
              kNetstatFields[kUdpIn] == "Udp_InDatagrams");

using enum RateKind;
constexpr RateKey kTcp[] = {
    {"activeps", kActive, kPerSecond, "active opens", "/s"},
    {"passiveps", kPassive, kPerSecond, "passive opens", "/s"},
    {"isegps", kInSegs, kPerSecond, "segments in", "/s"},
    {"osegps", kOutSegs, kPerSecond, "segments out", "/s"},
    {"atmptfps", kAttemptFails, kPerSecond, "failed attempts", "/s"},
    {"estresps", kEstabResets, kPerSecond, "established resets", "/s"},
    {"retransps", kRetrans, kPerSecond, "retransmitted", "/s"},
    {"isegerrps", kInErrs, kPerSecond, "bad segments in", "/s"},
    {"orstsps", kOutRsts, kPerSecond, "resets sent", "/s"},
    {"listen_overflowps", kListenOverflows, kPerSecond, "listen overflows", "/s"},
    {"listen_dropps", kListenDrops, kPerSecond, "listen drops", "/s"},
    {"curr_estab", kCurrEstab, kLevel, "established", "(last sample)"},
};
constexpr RateKey kUdp[] = {
    {"idgmps", kUdpIn, kPerSecond, "datagrams in", "/s"},
    {"odgmps", kUdpOut, kPerSecond, "datagrams out", "/s"},
    {"noportps", kNoPorts, kPerSecond, "to no port", "/s"},
    {"idgmerrps", kUdpInErrors, kPerSecond, "bad datagrams in", "/s"},
    {"rcvbuferrps", kRcvbuf, kPerSecond, "rcvbuf errors", "/s"},
    {"sndbuferrps", kSndbuf, kPerSecond, "sndbuf errors", "/s"},
};
constexpr RateGroup kGroups[] = {{"tcp", kTcp}, {"udp", kUdp}};
constexpr const RateKey* kPlotted[] = {&kTcp[0], &kTcp[1], &kTcp[6], &kTcp[8], &kTcp[10]};
// live: sar -n TCP,ETCP's active/s, passive/s and retrans/s.
constexpr LiveColumn kLiveColumns[] = {{"act", 5, LiveUnit::kCount},
                                       {"pas", 5, LiveUnit::kCount},
                                       {"retr", 5, LiveUnit::kCount}};
constexpr RateColumn kLiveKeys[] = {{&kTcp[0]}, {&kTcp[1]}, {&kTcp[6]}};
static_assert(std::size(kLiveColumns) == std::size(kLiveKeys));
constexpr RateTable kTable = {&kMember,         "netstat", "TCP and UDP", kGroups,
                              "node_netstat_", kPlotted, "# tcp",
                              "tcp",           kLiveColumns, kLiveKeys};

using Slots = RateSlots<kTable>;
constexpr PlotFileSpec kFiles[] = {
    {"tcp.dat", "# elapsed_time\tactive/s\tpassive/s\tretrans/s\torsts/s\tlisten_drops/s\n"}};
// Connections opened solid, trouble (retransmissions, resets, drops) dashed.
constexpr ChartLine kLines[] = {{"active opens", "$2"},
                                {"passive opens", "$3"},
                                {"retransmitted segments", "$4", true},
                                {"resets sent", "$5", true},
                                {"listen drops", "$6", true}};
constexpr ChartSpec kCharts[] = {
    {.name = "tcp", .title = "TCP (sar -n TCP,ETCP)", .ylabel = "per second", .lines = kLines},
};
constexpr PlotSlot kPlot = {kFiles, Slots::PlotPair, kCharts};

}  // namespace

extern const Report kNetstatReport;
constexpr Report kNetstatReport = Slots::Report(&kPlot);

}  // namespace pm
