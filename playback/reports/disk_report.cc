// The disk collector (member "disk": /proc/diskstats per device) in every
// output:
//   play     "disk":{"devices":[..],"<dev>":{riops wiops rkbyteps wkbyteps
//            rlatency wlatency rsize wsize qlen util [diops dkbyteps
//            dlatency] [fiops flatency]},...,"total":{..}}, PerfMonger's
//            formulas (compat §4), latency %.3f; rlatency, wlatency and
//            dlatency are iostat -x's r_await, w_await and d_await, qlen its
//            aqu-sz, util its %util (the total's: the devices' mean); the
//            discards' and flushes' only where the kernel counted them
//   summary  PerfMonger's "Average DEVICE usage" blocks (--all adds
//            utilization, queue length, discards, flushes); --json its "disk"
//   csv      disk.<dev>.<f>, disk.total.<f>
//   metrics  node_disk_*{device} (bytes: sectors × 512; discarded sectors
//            stay sectors, as node_exporter's; ms / 1000)
//   plot     disk.dat (PerfMonger's), disk-util.dat; charts disk-iops,
//            disk-transfer, disk-util, disk-await
// A legacy recording's outputs stay PerfMonger's: no util, no disk-util.
// --disk-only keeps the devices its regex matches, everywhere.
#include "playback/reports/disk_report.hh"

#include <algorithm>
#include <limits>
#include <string>

#include "playback/reports/device_rows.hh"
#include "playback/reports/disk_filter.hh"
#include "playback/outputs/export_csv.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/reports/play_text.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/stat_row.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/disk.hh"

namespace pm {
namespace {

// summary's text block starts "* " and it (Report::heading).
constexpr std::string_view kHeading = "Average DEVICE usage";

const size_t kDisk = MemberIndexOf("disk");
enum DiskField { kRdIos, kRdMerges, kRdSectors, kRdTicks, kWrIos, kWrMerges,
                 kWrSectors, kWrTicks, kInFlight, kIoTicks, kReqTicks,
                 kDcIos, kDcMerges, kDcSectors, kDcTicks, kFlIos, kFlTicks };
static_assert(kDiskFields[kReqTicks] == "weighted_io_ms" && kDiskFields[kWrSectors] == "write_sectors");
static_assert(kDiskFields[kDcIos] == "discards" && kDiskFields[kFlTicks] == "flush_ms");
static_assert(kDcIos == kDiskBaseFields && kFlIos == kDiskDiscardFields);

// What the recording's kernel counted beyond the 11 of every kernel: a
// recording without them (an older kernel, an older recorder, PerfMonger)
// shows none of their keys rather than zeros.
struct DiskExtras {
  bool discards = false, flushes = false;
  explicit DiskExtras(const ReportOptions& o)
      : discards(!o.legacy && o.Recorded(kDisk, kDcIos)),
        flushes(!o.legacy && o.Recorded(kDisk, kFlIos)) {}
};

struct DiskRates {
  double riops = 0, wiops = 0, rkbyteps = 0, wkbyteps = 0;
  double rlatency = 0, wlatency = 0;  // ms
  double rsize = 0, wsize = 0;        // sectors
  double qlen = 0;                    // iostat's aqu-sz
  double util = 0;                    // %: iostat's %util; the total's, the devices' mean
  double diops = 0, dkbyteps = 0, dlatency = 0;  // discards: iostat's d/s, dkB/s, d_await
  double fiops = 0, flatency = 0;                // flushes: iostat's f/s, f_await
  int64_t rsectors = 0, wsectors = 0; // Δ sectors: summary's amounts
};

double Ratio(int64_t num, int64_t den) {
  return static_cast<double>(num) / static_cast<double>(den);
}

DiskRates Entry(std::span<const uint64_t> a, std::span<const uint64_t> b, double itv) {
  auto d = [&](int i) { return CounterDelta(a[i], b[i]); };
  DiskRates r;
  if (d(kRdIos) != 0) {
    r.rlatency = Ratio(d(kRdTicks), d(kRdIos));
    r.rsize = Ratio(d(kRdSectors), d(kRdIos));
  }
  if (d(kWrIos) != 0) {
    r.wlatency = Ratio(d(kWrTicks), d(kWrIos));
    r.wsize = Ratio(d(kWrSectors), d(kWrIos));
  }
  r.riops = static_cast<double>(d(kRdIos)) / itv;
  r.wiops = static_cast<double>(d(kWrIos)) / itv;
  r.rkbyteps = static_cast<double>(d(kRdSectors)) / itv / 2.0;
  r.wkbyteps = static_cast<double>(d(kWrSectors)) / itv / 2.0;
  r.qlen = static_cast<double>(d(kReqTicks)) / itv / 1000.0;
  // sysstat's S_VALUE(tot_ticks) / 10: ms busy per second, as a percent.
  r.util = static_cast<double>(d(kIoTicks)) / itv / 10.0;
  r.rsectors = d(kRdSectors);
  r.wsectors = d(kWrSectors);
  if (d(kDcIos) != 0) r.dlatency = Ratio(d(kDcTicks), d(kDcIos));
  if (d(kFlIos) != 0) r.flatency = Ratio(d(kFlTicks), d(kFlIos));
  r.diops = static_cast<double>(d(kDcIos)) / itv;
  r.dkbyteps = static_cast<double>(d(kDcSectors)) / itv / 2.0;
  r.fiops = static_cast<double>(d(kFlIos)) / itv;
  return r;
}

// The disks of a pair, --disk-only applied, and their rates.
struct Disks : Devices<DiskRates, Entry> {
  explicit Disks(const Pair& p)
      : Devices(p, kDisk, [f = p.options.disk_only](const std::string& name) {
          return f == nullptr || f->Keeps(name);
        }) {}
  // Go sums the total in the first sample's device order, weighting latency
  // and size by each device's I/O count, then divides by the total count.
  DiskRates Total() const;
};

// A disk's I/O counts over a pair: the weights of its latencies and sizes.
struct IoCounts {
  int64_t rd = 0, wr = 0, dc = 0, fl = 0;
};

// One disk's rates added into the total, latencies and sizes weighted by
// its counts.
void AddDisk(DiskRates& t, const DiskRates& e, const IoCounts& n) {
  t.riops += e.riops;
  t.wiops += e.wiops;
  t.rsectors += e.rsectors;
  t.wsectors += e.wsectors;
  t.rkbyteps += e.rkbyteps;
  t.wkbyteps += e.wkbyteps;
  t.rlatency += e.rlatency * static_cast<double>(n.rd);
  t.wlatency += e.wlatency * static_cast<double>(n.wr);
  t.rsize += e.rsize * static_cast<double>(n.rd);
  t.wsize += e.wsize * static_cast<double>(n.wr);
  t.qlen += e.qlen;
  t.util += e.util;
  t.diops += e.diops;
  t.dkbyteps += e.dkbyteps;
  t.fiops += e.fiops;
  t.dlatency += e.dlatency * static_cast<double>(n.dc);
  t.flatency += e.flatency * static_cast<double>(n.fl);
}

// The weighted sums made averages: over the I/O counts, %util over the disks.
void Average(DiskRates& t, const IoCounts& n, size_t disks) {
  if (n.dc > 0) t.dlatency /= static_cast<double>(n.dc);
  if (n.fl > 0) t.flatency /= static_cast<double>(n.fl);
  if (n.rd > 0) {
    t.rlatency /= static_cast<double>(n.rd);
    t.rsize /= static_cast<double>(n.rd);
  }
  if (n.wr > 0) {
    t.wlatency /= static_cast<double>(n.wr);
    t.wsize /= static_cast<double>(n.wr);
  }
  if (disks > 0) t.util /= static_cast<double>(disks);
}

DiskRates Disks::Total() const {
  DiskRates t;
  IoCounts all;
  for (const DeviceRow& r : rows.all()) {
    auto a = prev.row(r.prev), b = cur.row(r.cur);
    const IoCounts n{CounterDelta(a[kRdIos], b[kRdIos]), CounterDelta(a[kWrIos], b[kWrIos]),
                     CounterDelta(a[kDcIos], b[kDcIos]), CounterDelta(a[kFlIos], b[kFlIos])};
    AddDisk(t, Of(r), n);
    all.rd += n.rd;
    all.wr += n.wr;
    all.dc += n.dc;
    all.fl += n.fl;
  }
  Average(t, all, rows.all().size());
  return t;
}

constexpr size_t kEntryMax = 15 * kFixedMember + 2;

// PerfMonger's keys; then, beyond its schema (not for a legacy recording),
// "util", and the discards' and flushes' where the kernel counted them.
char* PutEntry(char* p, const DiskRates& d, bool legacy, DiskExtras x) {
  p = Member(p, "{\"riops\":", d.riops);
  p = Member(p, ",\"wiops\":", d.wiops);
  p = Member(p, ",\"rkbyteps\":", d.rkbyteps);
  p = Member(p, ",\"wkbyteps\":", d.wkbyteps);
  p = Member(p, ",\"rlatency\":", d.rlatency, 3);
  p = Member(p, ",\"wlatency\":", d.wlatency, 3);
  p = Member(p, ",\"rsize\":", d.rsize);
  p = Member(p, ",\"wsize\":", d.wsize);
  p = Member(p, ",\"qlen\":", d.qlen);
  if (!legacy) p = Member(p, ",\"util\":", d.util);
  if (x.discards) {
    p = Member(p, ",\"diops\":", d.diops);
    p = Member(p, ",\"dkbyteps\":", d.dkbyteps);
    p = Member(p, ",\"dlatency\":", d.dlatency, 3);
  }
  if (x.flushes) {
    p = Member(p, ",\"fiops\":", d.fiops);
    p = Member(p, ",\"flatency\":", d.flatency, 3);
  }
  return Put(p, '}');
}

void Play(std::string& out, const Pair& p) {
  if (!p.Both(kDisk)) return;
  const Disks disks(p);
  const bool legacy = p.options.legacy;
  const DiskExtras x(p.options);
  AppendDeviceMember<kEntryMax>(out, "disk", disks, disks.Total(),
                                [legacy, x](char* q, const DiskRates& d) { return PutEntry(q, d, legacy, x); });
}

double Megabytes(int64_t sectors) {
  return static_cast<double>(sectors * 512) / 1024.0 / 1024.0;
}

void Block(std::string& out, std::string_view name, const DiskRates& d, bool sar, DiskExtras x) {
  out.append("* ").append(kHeading).append(": ");
  AppendPrintable(out, name);  // a device's name as recorded
  out.push_back('\n');
  // PerfMonger keeps sectors/s; rkbyteps is exactly half of it.
  double rd_secps = d.rkbyteps * 2.0, wr_secps = d.wkbyteps * 2.0;
  SummaryLine(out, "        read IOPS: ", d.riops, 2, "");
  SummaryLine(out, "       write IOPS: ", d.wiops, 2, "");
  SummaryLine(out, "  read throughput: ", rd_secps * 512.0 / 1024.0 / 1024.0, 2, " MB/s");
  SummaryLine(out, " write throughput: ", wr_secps * 512.0 / 1024.0 / 1024.0, 2, " MB/s");
  SummaryLine(out, "     read latency: ", d.rlatency * 1000.0, 1, " usec");
  SummaryLine(out, "    write latency: ", d.wlatency * 1000.0, 1, " usec");
  SummaryLine(out, "      read amount: ", Megabytes(d.rsectors), 2, " MB");
  SummaryLine(out, "     write amount: ", Megabytes(d.wsectors), 2, " MB");
  if (sar) {  // sar -d's, beyond PerfMonger's block
    SummaryLine(out, "      utilization: ", d.util, 2, " %");
    SummaryLine(out, "     queue length: ", d.qlen, 2, "");
  }
  if (sar && x.discards) {
    SummaryLine(out, "     discard IOPS: ", d.diops, 2, "");
    SummaryLine(out, "discard throughput: ", d.dkbyteps / 1024.0, 2, " MB/s");
    SummaryLine(out, "  discard latency: ", d.dlatency * 1000.0, 1, " usec");
  }
  if (sar && x.flushes) {
    SummaryLine(out, "       flush rate: ", d.fiops, 2, " /s");
    SummaryLine(out, "    flush latency: ", d.flatency * 1000.0, 1, " usec");
  }
  out.push_back('\n');
}

// PerfMonger's blocks: per device, sorted, then "total" when there is
// more than one.
void SummaryText(std::string& out, const Pair& p) {
  if (!p.rated() || !p.Both(kDisk)) return;
  const Disks disks(p);
  // The default text stays PerfMonger's byte for byte (scripts compare it).
  const bool sar = p.options.all && !p.options.legacy;
  const DiskExtras x(p.options);
  for (const DeviceRow& r : disks.rows.listed()) Block(out, disks.Name(r), disks.Of(r), sar, x);
  if (disks.rows.listed().size() > 1) Block(out, "total", disks.Total(), sar, x);
}

// summary --stats, per device and the total: throughput in MiB/s (2^20
// bytes, the MB/s of the summary's block), latency (iostat's r_await and
// w_await) only over intervals with I/O of its direction (none measured
// nothing), and iostat's %util and aqu-sz.
void StatsOf(StatRow& row, std::string_view name, const DiskRates& d, bool legacy,
             DiskExtras x) {
  row.Rate("disk", name, "riops", "IO/s", d.riops);
  row.Rate("disk", name, "wiops", "IO/s", d.wiops);
  row.Rate("disk", name, "rmibps", "MiB/s", d.rkbyteps / 1024.0);
  row.Rate("disk", name, "wmibps", "MiB/s", d.wkbyteps / 1024.0);
  row.Rate("disk", name, "rlatency", "ms", d.riops > 0 ? d.rlatency : StatRow::kNoValue);
  row.Rate("disk", name, "wlatency", "ms", d.wiops > 0 ? d.wlatency : StatRow::kNoValue);
  if (legacy) return;
  row.Rate("disk", name, "util", "%", d.util);
  row.Rate("disk", name, "qlen", "requests", d.qlen);
  if (x.discards) {
    row.Rate("disk", name, "diops", "IO/s", d.diops);
    row.Rate("disk", name, "dmibps", "MiB/s", d.dkbyteps / 1024.0);
    row.Rate("disk", name, "dlatency", "ms", d.diops > 0 ? d.dlatency : StatRow::kNoValue);
  }
  if (x.flushes) {
    row.Rate("disk", name, "fiops", "IO/s", d.fiops);
    row.Rate("disk", name, "flatency", "ms", d.fiops > 0 ? d.flatency : StatRow::kNoValue);
  }
}

void Stats(StatRow& row, const Pair& p) {
  if (!p.rated() || !p.Both(kDisk)) return;
  const Disks disks(p);
  const bool legacy = p.options.legacy;
  const DiskExtras x(p.options);
  for (const DeviceRow& r : disks.rows.listed())
    StatsOf(row, disks.Name(r), disks.Of(r), legacy, x);
  if (disks.rows.listed().size() > 1) StatsOf(row, "total", disks.Total(), legacy, x);
}

// play's keys; a legacy recording's stop before "util", one without
// discards or flushes before theirs.
constexpr std::string_view kCsvKeys[] = {"riops", "wiops",    "rkbyteps", "wkbyteps", "rlatency",
                                         "wlatency", "rsize", "wsize",    "qlen",     "util"};
constexpr std::string_view kDiscardKeys[] = {"diops", "dkbyteps", "dlatency"};
constexpr std::string_view kFlushKeys[] = {"fiops", "flatency"};

void CsvCells(CsvRow& row, std::string_view name, const DiskRates& d, bool legacy, DiskExtras x) {
  row.Group("disk", name, std::span(kCsvKeys).first(std::size(kCsvKeys) - (legacy ? 1 : 0)));
  for (double v : {d.riops, d.wiops, d.rkbyteps, d.wkbyteps}) row.Fixed(v, 2);
  for (double v : {d.rlatency, d.wlatency}) row.Fixed(v, 3);
  for (double v : {d.rsize, d.wsize, d.qlen}) row.Fixed(v, 2);
  if (!legacy) row.Fixed(d.util, 2);
  if (x.discards) {
    row.Group("disk", name, kDiscardKeys);
    row.Fixed(d.diops, 2);
    row.Fixed(d.dkbyteps, 2);
    row.Fixed(d.dlatency, 3);
  }
  if (x.flushes) {
    row.Group("disk", name, kFlushKeys);
    row.Fixed(d.fiops, 2);
    row.Fixed(d.flatency, 3);
  }
}

void Csv(CsvRow& row, const Pair& p) {
  if (!p.Both(kDisk)) return;
  const Disks disks(p);
  const bool legacy = p.options.legacy;
  const DiskExtras x(p.options);
  for (const DeviceRow& r : disks.rows.listed())
    CsvCells(row, disks.Name(r), disks.Of(r), legacy, x);
  CsvCells(row, "total", disks.Total(), legacy, x);
}

// In kDiskFields order; help texts as node_exporter words them.
constexpr FieldFamily kFamilies[17] = {
    {"node_disk_reads_completed", true, "", "The total number of reads completed successfully.", Scale::kOne},
    {"node_disk_reads_merged", true, "", "The total number of reads merged.", Scale::kOne},
    {"node_disk_read_bytes", true, "bytes", "The total number of bytes read successfully.", Scale::kTimes512},
    {"node_disk_read_time_seconds", true, "seconds", "The total number of seconds spent by all reads.", Scale::kPerThousand},
    {"node_disk_writes_completed", true, "", "The total number of writes completed successfully.", Scale::kOne},
    {"node_disk_writes_merged", true, "", "The number of writes merged.", Scale::kOne},
    {"node_disk_written_bytes", true, "bytes", "The total number of bytes written successfully.", Scale::kTimes512},
    {"node_disk_write_time_seconds", true, "seconds", "This is the total number of seconds spent by all writes.", Scale::kPerThousand},
    {"node_disk_io_now", false, "", "The number of I/Os currently in progress.", Scale::kOne},
    {"node_disk_io_time_seconds", true, "seconds", "Total seconds spent doing I/Os.", Scale::kPerThousand},
    {"node_disk_io_time_weighted_seconds", true, "seconds", "The weighted # of seconds spent doing I/Os.", Scale::kPerThousand},
    {"node_disk_discards_completed", true, "", "The total number of discards completed successfully.", Scale::kOne},
    {"node_disk_discards_merged", true, "", "The total number of discards merged.", Scale::kOne},
    {"node_disk_discarded_sectors", true, "", "The total number of sectors discarded successfully.", Scale::kOne},
    {"node_disk_discard_time_seconds", true, "seconds", "This is the total number of seconds spent by all discards.", Scale::kPerThousand},
    {"node_disk_flush_requests", true, "", "The total number of flush requests completed successfully", Scale::kOne},
    {"node_disk_flush_requests_time_seconds", true, "seconds", "This is the total number of seconds spent by all flush requests.", Scale::kPerThousand},
};
static_assert(std::size(kFamilies) == kDiskFields.size());

void Families(MetricFamilies& out) { out.Declare(kFamilies); }

// The families of the fields the recording has: the 11, then the
// discards' and the flushes' where its kernel counted them.
size_t RecordedFamilies(const RecordingInfo& info) {
  if (info.legacy() || !info.Recorded(kDisk, kDcIos)) return kDiskBaseFields;
  return info.Recorded(kDisk, kFlIos) ? kDiskFields.size() : kDiskDiscardFields;
}

void Series(MetricRow& row, const RawSample& s) {
  const MemberRows& disk = s.members[kDisk];
  const size_t n = RecordedFamilies(row.info());
  for (size_t d = 0; disk.has && d < disk.rows(); ++d) {
    if (!disk.live(d)) continue;
    const std::string& name = disk.names[d];
    uint32_t base = row.Block(name, [&] {
      if (row.disk_only() && !row.disk_only()->Keeps(name)) return MetricRow::kLeftOut;
      std::string device;
      AppendLabel(device, "device", name);
      return row.Add(std::span(kFamilies).first(n), 0, device);
    });
    if (base != MetricRow::kLeftOut) row.Put(base, disk.row(d).first(n));
  }
}

constexpr std::string_view kLabels[] = {"device"};
constexpr MetricsSlot kMetrics = {Families, kLabels, Series};

// disk.dat is PerfMonger's; disk-util.dat ours (not for a legacy recording).
constexpr PlotFileSpec kFiles[] = {
    {"disk.dat",
     "# elapsed_time\tr_iops\tw_iops\tr_MB/s\tw_MB/s\tr_latency\tw_latency\tr_avgsz\tw_avgsz\tqdepth\n"},
    {"disk-util.dat", "# elapsed_time\t%util\tr_await\tw_await\taqu-sz\n"}};

void PlotRow(PlotLines& out, PlotBlock& block, const DiskRates& d) {
  std::string& line = out.Line(block);
  for (double v : {d.riops, d.wiops, d.rkbyteps / 1024.0, d.wkbyteps / 1024.0,
                   d.rlatency, d.wlatency, d.rsize, d.wsize, d.qlen})
    PlotLines::Col(line, v);
  line.push_back('\n');
}

// An interval without reads (writes) has no read (write) await: NaN, a
// gap in the chart, not 0 ms.
void UtilRow(PlotLines& out, PlotBlock& block, const DiskRates& d) {
  std::string& line = out.Line(block);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double rawait = d.riops > 0 ? d.rlatency : nan, wawait = d.wiops > 0 ? d.wlatency : nan;
  for (double v : {d.util, rawait, wawait, d.qlen}) PlotLines::Col(line, v);
  line.push_back('\n');
}

void PlotPair(PlotLines& out, const Pair& p) {
  if (!p.Both(kDisk)) return;
  const Disks disks(p);
  const bool legacy = p.options.legacy;
  for (const DeviceRow& r : disks.rows.listed()) {
    const std::string& name = disks.Name(r);
    PlotRow(out, out.Block(0, 0, name, "# device: " + name), disks.Of(r));
    if (!legacy) UtilRow(out, out.Block(1, 0, name, "# device: " + name), disks.Of(r));
  }
  PlotRow(out, out.Block(0, 1, "total", "# device: total"), disks.Total());
  if (!legacy) UtilRow(out, out.Block(1, 1, "total", "# device: total"), disks.Total());
}

// One line per (device, direction): reads solid, writes dashed.
constexpr ChartLine kIopsLines[] = {{"read", "$2", false, Direction::kRead},
                                    {"write", "$3", true, Direction::kWrite}};
constexpr ChartLine kTransferLines[] = {{"read", "$4", false, Direction::kRead},
                                        {"write", "$5", true, Direction::kWrite}};
constexpr ChartLine kUtilLines[] = {{"", "$2", false}};
constexpr ChartLine kAwaitLines[] = {{"r_await", "$3", false, Direction::kRead},
                                     {"w_await", "$4", true, Direction::kWrite}};
constexpr ChartSpec kCharts[] = {
    {.name = "disk-iops", .title = "Disk IOPS", .ylabel = "IOPS (requests/s)",
     .lines = kIopsLines, .total = TotalLine::kWhenSeveral, .directional = true,
     .iops_axis = true},
    {.name = "disk-transfer", .title = "Disk transfer", .ylabel = "transfer",
     .lines = kTransferLines, .total = TotalLine::kWhenSeveral, .directional = true,
     .bytes_per_unit = 1048576},
    {.name = "disk-util", .title = "Disk utilization (iostat's %util)", .ylabel = "% of the time busy",
     .file = 1, .lines = kUtilLines, .ymax = 100},
    {.name = "disk-await", .title = "Disk await (iostat's r_await, w_await)",
     .ylabel = "await (ms per request)", .file = 1, .lines = kAwaitLines,
     .total = TotalLine::kWhenSeveral, .directional = true},
};
constexpr PlotSlot kPlot = {kFiles, PlotPair, kCharts};

// live: read and write bytes/s and the busiest disk's %util (the mean,
// play's total util, would hide one saturated disk among idle ones):
// named "max%", not "util", so that one name means one thing everywhere.
constexpr LiveColumn kLiveColumns[] = {{"read", 5, LiveUnit::kBytes},
                                       {"writ", 5, LiveUnit::kBytes},
                                       {"max%", 4, LiveUnit::kPercent}};

bool LiveValues(const Pair& p, std::string_view part, std::span<double> out) {
  if (!p.Both(kDisk)) return false;
  const Disks disks(p);
  DiskRates r;
  if (part.empty()) {
    r = disks.Total();
    r.util = 0;
    for (const DeviceRow& d : disks.rows.listed()) r.util = std::max(r.util, disks.Of(d).util);
  } else if (const DeviceRow* d = FindListed(disks, part)) {
    r = disks.Of(*d);
  } else {
    return false;
  }
  out[0] = r.rkbyteps * 1024;
  out[1] = r.wkbyteps * 1024;
  out[2] = r.util;
  return true;
}
constexpr LiveSlot kLive = {"disk", kLiveColumns, nullptr, LiveValues};

}  // namespace

DiskSectors TotalSectors(const Pair& p) {
  if (!p.Both(kDisk)) return {};
  DiskRates t = Disks(p).Total();
  return {t.rsectors, t.wsectors};
}

extern const Report kDiskReport;
constexpr Report kDiskReport = {
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
