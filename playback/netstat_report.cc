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
#include "playback/field_rates.hh"
#include "playback/plot_chart.hh"
#include "playback/plot_data.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

constexpr size_t kMember = PgrMemberIndex("netstat");
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
constexpr RateTable kTable = {kMember, "netstat", "TCP and UDP", kGroups, "node_netstat_"};

void Play(std::string& out, const Pair& p) { PlayRates(out, kTable, p); }
void SummaryText(std::string& out, const Pair& p) { SummaryRates(out, kTable, p); }
void SummaryJson(std::string& out, const Pair& p) { SummaryJsonRates(out, kTable, p); }
void Csv(CsvRow& row, const Pair& p) { CsvRates(row, kTable, p); }
void Families(MetricFamilies& out) { RateFamilies(out, kTable); }
void Series(MetricRow& row, const RawSample& s) { RateSeries(row, kTable, s); }
constexpr MetricsSlot kMetrics = {Families, {}, Series};

constexpr PlotFileSpec kFiles[] = {
    {"tcp.dat", "# elapsed_time\tactive/s\tpassive/s\tretrans/s\torsts/s\tlisten_drops/s\n"}};
constexpr size_t kPlotted[] = {0, 1, 6, 8, 10};  // of kTcp

void PlotPair(PlotLines& out, const Pair& p) {
  if (!p.Both(kMember) || p.options.legacy) return;
  std::string& line = out.Line(out.Block(0, 0, "system", "# tcp"));
  for (size_t k : kPlotted) PlotLines::Col(line, RateValue(kTcp[k], p, kMember));
  line.push_back('\n');
}

// Connections opened solid, trouble (retransmissions, resets, drops) dashed.
constexpr ChartLine kLines[] = {{"active opens", "$2"},
                                {"passive opens", "$3"},
                                {"retransmitted segments", "$4", true},
                                {"resets sent", "$5", true},
                                {"listen drops", "$6", true}};
constexpr ChartSpec kCharts[] = {
    {.name = "tcp", .title = "TCP (sar -n TCP,ETCP)", .ylabel = "per second", .lines = kLines},
};
constexpr PlotSlot kPlot = {kFiles, PlotPair, kCharts};

}  // namespace

extern const Report kNetstatReport;
constexpr Report kNetstatReport = {
    .play = Play,
    .summary_text = SummaryText,
    .summary_json = SummaryJson,
    .phases = &kCounterGaps,
    .csv = Csv,
    .openmetrics = &kMetrics,
    .plot = &kPlot,
    .live = nullptr,
};

}  // namespace pm
