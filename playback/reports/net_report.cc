// The net collector (member "net": /proc/net/dev per interface) in every
// output:
//   play     "net":{"devices":[..],"<if>":{rxkbyteps rxpktps rxerrps rxdropps
//            txkbyteps txpktps txerrps txdropps},...,"total":{..}}
//            (PerfMonger's; the total is the interfaces' sum)
//   summary  with --all, an "Average NETWORK usage" block per interface
//            (and the total when there are several); --json its "net"
//   csv      net.<if>.<f>, net.total.<f>
//   metrics  node_network_{receive,transmit}_*_total{device}
//   plot     net.dat (ours): elapsed_time rx_kB/s tx_kB/s rx_pkt/s tx_pkt/s
//            rx_err/s tx_err/s rx_drop/s tx_drop/s, one block per
//            interface then total; chart net
#include <string>

#include "playback/reports/device_rows.hh"
#include "playback/outputs/export_csv.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/reports/play_text.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/stat_row.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/net.hh"

namespace pm {
namespace {

// summary's text block starts "* " and it (Report::heading).
constexpr std::string_view kHeading = "Average NETWORK usage";

const size_t kNet = MemberIndexOf("net");
static_assert(kNetFields[8] == "tx_bytes" && kNetFields[11] == "tx_drop");

struct NetRates {
  double rxkbyteps = 0, rxpktps = 0, rxerrps = 0, rxdropps = 0;
  double txkbyteps = 0, txpktps = 0, txerrps = 0, txdropps = 0;
};

NetRates Entry(std::span<const uint64_t> a, std::span<const uint64_t> b, double itv) {
  auto ps = [&](int i) { return static_cast<double>(CounterDelta(a[i], b[i])) / itv; };
  // rx: bytes 0 packets 1 errs 2 drop 3; tx: bytes 8 packets 9 errs 10 drop 11
  return NetRates{ps(0) / 1024.0, ps(1), ps(2), ps(3),
                  ps(8) / 1024.0, ps(9), ps(10), ps(11)};
}

// The interfaces of a pair and their rates.
struct Nets : Devices<NetRates, Entry> {
  explicit Nets(const Pair& p) : Devices(p, kNet, [](const std::string&) { return true; }) {}
  // Summed in the first sample's order, as PerfMonger does.
  NetRates Total() const {
    NetRates t;
    for (const DeviceRow& r : rows.all()) {
      NetRates e = Of(r);
      t.rxkbyteps += e.rxkbyteps;
      t.rxpktps += e.rxpktps;
      t.rxerrps += e.rxerrps;
      t.rxdropps += e.rxdropps;
      t.txkbyteps += e.txkbyteps;
      t.txpktps += e.txpktps;
      t.txerrps += e.txerrps;
      t.txdropps += e.txdropps;
    }
    return t;
  }
};

constexpr size_t kEntryMax = 8 * kFixedMember + 2;

char* PutEntry(char* p, const NetRates& n) {
  p = Member(p, "{\"rxkbyteps\":", n.rxkbyteps);
  p = Member(p, ",\"rxpktps\":", n.rxpktps);
  p = Member(p, ",\"rxerrps\":", n.rxerrps);
  p = Member(p, ",\"rxdropps\":", n.rxdropps);
  p = Member(p, ",\"txkbyteps\":", n.txkbyteps);
  p = Member(p, ",\"txpktps\":", n.txpktps);
  p = Member(p, ",\"txerrps\":", n.txerrps);
  p = Member(p, ",\"txdropps\":", n.txdropps);
  return Put(p, '}');
}

void Play(std::string& out, const Pair& p) {
  if (!p.Both(kNet)) return;
  const Nets nets(p);
  AppendDeviceMember<kEntryMax>(out, "net", nets, nets.Total(), PutEntry);
}

void Block(std::string& out, std::string_view name, const NetRates& n) {
  out.append("* ").append(kHeading).append(": ");
  AppendPrintable(out, name);  // an interface's name as recorded
  out.push_back('\n');
  SummaryLine(out, "    RX throughput: ", n.rxkbyteps, 2, " KB/s");
  SummaryLine(out, "       RX packets: ", n.rxpktps, 2, " /s");
  SummaryLine(out, "        RX errors: ", n.rxerrps, 2, " /s");
  SummaryLine(out, "         RX drops: ", n.rxdropps, 2, " /s");
  SummaryLine(out, "    TX throughput: ", n.txkbyteps, 2, " KB/s");
  SummaryLine(out, "       TX packets: ", n.txpktps, 2, " /s");
  SummaryLine(out, "        TX errors: ", n.txerrps, 2, " /s");
  SummaryLine(out, "         TX drops: ", n.txdropps, 2, " /s");
  out.push_back('\n');
}

// Beyond PerfMonger's summary: --all only.
void SummaryText(std::string& out, const Pair& p) {
  if (!p.options.all || !p.rated() || !p.Both(kNet)) return;
  const Nets nets(p);
  for (const DeviceRow& r : nets.rows.listed()) Block(out, nets.Name(r), nets.Of(r));
  if (nets.rows.listed().size() > 1) Block(out, "total", nets.Total());
}

// summary --stats, per interface and the total: KiB/s (2^10 bytes, play's
// kbyteps) and packets/s; drops and errors, both ways summed (summary --use).
void StatsOf(StatRow& row, std::string_view name, const NetRates& n) {
  row.Rate("net", name, "rxkbyteps", "KiB/s", n.rxkbyteps);
  row.Rate("net", name, "txkbyteps", "KiB/s", n.txkbyteps);
  row.Rate("net", name, "rxpktps", "packets/s", n.rxpktps);
  row.Rate("net", name, "txpktps", "packets/s", n.txpktps);
  row.Rate("net", name, "dropps", "packets/s", n.rxdropps + n.txdropps);
  row.Rate("net", name, "errps", "packets/s", n.rxerrps + n.txerrps);
}

void Stats(StatRow& row, const Pair& p) {
  if (!p.rated() || !p.Both(kNet)) return;
  const Nets nets(p);
  for (const DeviceRow& r : nets.rows.listed()) StatsOf(row, nets.Name(r), nets.Of(r));
  if (nets.rows.listed().size() > 1) StatsOf(row, "total", nets.Total());
}

constexpr std::string_view kCsvKeys[] = {"rxkbyteps", "rxpktps", "rxerrps", "rxdropps",
                                         "txkbyteps", "txpktps", "txerrps", "txdropps"};

void CsvCells(CsvRow& row, std::string_view name, const NetRates& n) {
  row.Group("net", name, kCsvKeys);
  for (double v : {n.rxkbyteps, n.rxpktps, n.rxerrps, n.rxdropps, n.txkbyteps, n.txpktps,
                   n.txerrps, n.txdropps})
    row.Fixed(v, 2);
}

void Csv(CsvRow& row, const Pair& p) {
  if (!p.Both(kNet)) return;
  const Nets nets(p);
  for (const DeviceRow& r : nets.rows.listed()) CsvCells(row, nets.Name(r), nets.Of(r));
  CsvCells(row, "total", nets.Total());
}

// rx_bytes -> receive_bytes, tx_colls -> transmit_colls
std::string Stat(std::string_view field) {
  return std::string(field.starts_with("rx_") ? "receive_" : "transmit_")
      .append(field.substr(3));
}

// node_exporter's netdev families, in /proc/net/dev's column order.
void Families(MetricFamilies& out) {
  for (std::string_view field : kNetFields) {
    std::string stat = Stat(field);
    out.Counter(std::string("node_network_").append(stat),
                stat.ends_with("_bytes") ? "bytes" : "",
                std::string("Network device statistic ").append(stat).append("."));
  }
}

void Series(MetricRow& row, const RawSample& s) {
  const MemberRows& net = s.members[kNet];
  for (size_t n = 0; net.has && n < net.rows(); ++n) {
    if (!net.live(n)) continue;
    uint32_t base = row.Block(net.names[n], [&] {
      std::string device;
      AppendLabel(device, "device", net.names[n]);
      uint32_t first = row.Add(0, Scale::kOne, device);
      for (uint32_t i = 1; i < kNetFields.size(); ++i) row.Add(i, Scale::kOne, device);
      return first;
    });
    row.Put(base, net.row(n));
  }
}

constexpr std::string_view kLabels[] = {"device"};
constexpr MetricsSlot kMetrics = {Families, kLabels, Series};

constexpr PlotFileSpec kFiles[] = {
    {"net.dat",
     "# elapsed_time\trx_kB/s\ttx_kB/s\trx_pkt/s\ttx_pkt/s\trx_err/s\ttx_err/s\trx_drop/s\ttx_drop/s\n"}};

void PlotRow(PlotLines& out, PlotBlock& block, const NetRates& n) {
  std::string& line = out.Line(block);
  for (double v : {n.rxkbyteps, n.txkbyteps, n.rxpktps, n.txpktps, n.rxerrps,
                   n.txerrps, n.rxdropps, n.txdropps})
    PlotLines::Col(line, v);
  line.push_back('\n');
}

void PlotPair(PlotLines& out, const Pair& p) {
  if (!p.Both(kNet)) return;
  const Nets nets(p);
  for (const DeviceRow& r : nets.rows.listed()) {
    const std::string& name = nets.Name(r);
    PlotRow(out, out.Block(0, 0, name, "# interface: " + name), nets.Of(r));
  }
  PlotRow(out, out.Block(0, 1, "total", "# interface: total"), nets.Total());
}

// Received solid, sent dashed, one colour per interface (kB/s).
constexpr ChartLine kLines[] = {{"received", "$2", false}, {"sent", "$3", true}};
constexpr ChartSpec kCharts[] = {
    {.name = "net", .title = "Network traffic", .ylabel = "traffic", .lines = kLines,
     .bytes_per_unit = 1024, .network = true},
};
constexpr PlotSlot kPlot = {kFiles, PlotPair, kCharts};

// live: bytes/s received and sent, every interface's or one's.
constexpr LiveColumn kLiveColumns[] = {{"recv", 5, LiveUnit::kBytes},
                                       {"send", 5, LiveUnit::kBytes}};

bool LiveValues(const Pair& p, std::string_view part, std::span<double> out) {
  if (!p.Both(kNet)) return false;
  const Nets nets(p);
  NetRates r;
  if (part.empty()) r = nets.Total();
  else if (const DeviceRow* d = FindListed(nets, part)) r = nets.Of(*d);
  else return false;
  out[0] = r.rxkbyteps * 1024;
  out[1] = r.txkbyteps * 1024;
  return true;
}
constexpr LiveSlot kLive = {"net", kLiveColumns, nullptr, LiveValues};

}  // namespace

extern const Report kNetReport;
constexpr Report kNetReport = {
    .play = Play,
    .summary_text = SummaryText,
    .heading = kHeading,
    .summary_json = WhenRated<Play>,  // play's object over the span
    .phases = &kCounterGaps,
    .stats = Stats,
    .csv = Csv,
    .openmetrics = &kMetrics,
    .plot = &kPlot,
    .live = &kLive,
};

}  // namespace pm
