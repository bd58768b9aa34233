#include "playback/plot_data.hh"

#include <algorithm>

#include "playback/rates.hh"

namespace pm {
namespace {

constexpr char kCpuColumns[] =
    "# elapsed_time\t%usr\t%nice\t%sys\t%iowait\t%hardirq\t%softirq\t%steal\t%guest\t%idle\n";
constexpr char kDiskColumns[] =
    "# elapsed_time\tr_iops\tw_iops\tr_MB/s\tw_MB/s\tr_latency\tw_latency\tr_avgsz\tw_avgsz\tqdepth\n";
constexpr char kNetColumns[] =
    "# elapsed_time\trx_kB/s\ttx_kB/s\trx_pkt/s\ttx_pkt/s\trx_err/s\ttx_err/s\trx_drop/s\ttx_drop/s\n";

// mem.dat's columns after elapsed_time: `play`'s mem keys (PlayMemKeys),
// then Hugepagesize, which PerfMonger's plot adds.
constexpr PlayMemKey kHugepagesize{"hugepagesize", 29};

template <typename F>
void ForEachMemColumn(F f) {
  for (const PlayMemKey& k : PlayMemKeys()) f(k);
  f(kHugepagesize);
}

// "\t%f" as Go prints it; the last column of a line ends it.
void Col(std::string& out, double v) {
  out.push_back('\t');
  AppendFixed(out, v, 6);
}

// A pair in which no jiffy passed (two samples within one tick, such as a
// mark's just after a scheduled one) measured nothing: PerfMonger's
// arithmetic gives all zeros, which would draw as a dip to 0 %, so its line
// is left out.
bool Measured(const CpuUsage& u) {
  return u.usr + u.nice + u.sys + u.iowait + u.hardirq + u.softirq + u.steal + u.guest +
             u.idle > 0;
}

void CpuColumns(std::string& out, const CpuUsage& u) {
  for (double v : {u.usr, u.nice, u.sys, u.iowait, u.hardirq, u.softirq, u.steal,
                   u.guest, u.idle})
    Col(out, v);
  out.push_back('\n');
}

void DiskColumns(std::string& out, const DiskRates& d) {
  for (double v : {d.riops, d.wiops, d.rkbyteps / 1024.0, d.wkbyteps / 1024.0,
                   d.rlatency, d.wlatency, d.rsize, d.wsize, d.qlen})
    Col(out, v);
  out.push_back('\n');
}

void NetColumns(std::string& out, const NetRates& n) {
  for (double v : {n.rxkbyteps, n.txkbyteps, n.rxpktps, n.txpktps, n.rxerrps,
                   n.txerrps, n.rxdropps, n.txdropps})
    Col(out, v);
  out.push_back('\n');
}

void MemColumns(std::string& out, std::span<const uint64_t> mem) {
  ForEachMemColumn([&](const PlayMemKey& c) {
    out.push_back('\t');
    int64_t v = c.index < 0 ? MemUsed(mem) : static_cast<int64_t>(mem[c.index]);
    out.append(std::to_string(v));
  });
  out.push_back('\n');
}

// Blocks are set apart by three blank lines (cpu.dat has none before its
// first block, disk.dat and net.dat have them before every block).
void AppendBlock(std::string& out, const std::string& title, const char* columns,
                 const std::string& lines, bool separate = true) {
  if (separate) out.append("\n\n\n");
  out.append(title).append("\n").append(columns).append(lines);
}

}  // namespace

void PlotData::OnSample(const RawSample& s) {
  if (!have_first_) {
    first_ns_ = s.time_ns;
    have_first_ = true;
  }
  // A sample not later than the one before cannot make a rate (`play`
  // warns about it): the pair is left out.
  if (have_prev_ && s.time_ns > prev_.time_ns) Pair(prev_, s);
  prev_ = s;
  have_prev_ = true;
}

void PlotData::OnEvent(const RecordingEvent& e) {
  if (e.kind == "mark") {
    marks_.push_back({e.time_ns, e.label});
    return;
  }
  if (e.kind != "pause" && e.kind != "resume") return;
  have_prev_ = false;  // no rate spans a pause
  ++segment_;
  bool open = pause_edges_.size() % 2 == 1;
  if ((e.kind == "pause") != open) pause_edges_.push_back(e.time_ns);
}

PlotData::Block& PlotData::Line(Block& block) {
  if (!block.text.empty() && block.segment != segment_) block.text.push_back('\n');
  block.segment = segment_;
  block.text.append(elapsed_text_);
  return block;
}

void PlotData::Pair(const RawSample& prev, const RawSample& cur) {
  RateOptions options;
  options.disk_only = disk_only_;
  PairRates r = ComputeRates(prev, cur, first_ns_, options);
  ++pairs_;
  last_pair_ns_ = prev.time_ns;
  elapsed_text_.clear();
  AppendFixed(elapsed_text_, GoSeconds(prev.time_ns - first_ns_), 6);
  if (r.has_cpu) {
    has_cpu_ = true;
    if (cores_.size() < r.cpu.cores.size()) cores_.resize(r.cpu.cores.size());
    if (Measured(r.cpu.all)) CpuColumns(Line(cpu_all_).text, r.cpu.all);
    for (size_t i = 0; i < r.cpu.cores.size(); ++i)
      if (Measured(r.cpu.cores[i])) CpuColumns(Line(cores_[i]).text, r.cpu.cores[i]);
  }
  if (r.has_disk) {
    has_disk_ = true;
    for (const auto& [name, d] : r.disks) DiskColumns(Line(disks_[name]).text, d);
    DiskColumns(Line(disk_total_).text, r.disk_total);
  }
  if (r.has_net) {
    has_net_ = true;
    for (const auto& [name, n] : r.nets) NetColumns(Line(nets_[name]).text, n);
    NetColumns(Line(net_total_).text, r.net_total);
  }
  if (r.has_mem) {
    has_mem_ = true;
    MemColumns(Line(mem_).text, r.mem);
  }
}

std::string PlotData::CpuDat() const {
  std::string out;
  if (!has_cpu_) return out;
  AppendBlock(out, "# All cpu usage", kCpuColumns, cpu_all_.text, false);
  for (size_t i = 0; i < cores_.size(); ++i)
    AppendBlock(out, "# core: " + std::to_string(i), kCpuColumns, cores_[i].text);
  return out;
}

std::string PlotData::DiskDat() const {
  std::string out;
  if (!has_disk_) return out;
  for (const auto& [name, block] : disks_) {
    AppendBlock(out, "# device: " + name, kDiskColumns, block.text);
  }
  AppendBlock(out, "# device: total", kDiskColumns, disk_total_.text);
  return out;
}

std::string PlotData::NetDat() const {
  std::string out;
  if (!has_net_) return out;
  for (const auto& [name, block] : nets_) {
    AppendBlock(out, "# interface: " + name, kNetColumns, block.text);
  }
  AppendBlock(out, "# interface: total", kNetColumns, net_total_.text);
  return out;
}

std::string PlotData::MemDat() const {
  if (!has_mem_) return {};
  std::string out = "#elapsed_time";
  ForEachMemColumn([&](const PlayMemKey& c) { out.append("\t").append(c.key); });
  out.push_back('\n');
  return out + mem_.text;
}

std::vector<std::string> PlotData::disks() const {
  std::vector<std::string> names;
  for (const auto& entry : disks_) names.push_back(entry.first);
  return names;
}

std::vector<std::string> PlotData::nets() const {
  std::vector<std::string> names;
  for (const auto& entry : nets_) names.push_back(entry.first);
  return names;
}

double PlotData::Elapsed(int64_t ns) const { return GoSeconds(ns - first_ns_); }

double PlotData::end() const { return pairs_ ? Elapsed(last_pair_ns_) : 0; }

std::vector<PlotMark> PlotData::marks() const {
  std::vector<PlotMark> out;
  for (const TimedLabel& m : marks_) out.push_back({Elapsed(m.time_ns), m.label});
  return out;
}

std::vector<PlotSpan> PlotData::pauses() const {
  std::vector<PlotSpan> out;
  for (size_t i = 0; i < pause_edges_.size(); i += 2) {
    double to = i + 1 < pause_edges_.size() ? Elapsed(pause_edges_[i + 1])
                                            : std::max(end(), Elapsed(pause_edges_[i]));
    out.push_back({Elapsed(pause_edges_[i]), to});
  }
  return out;
}

}  // namespace pm
