// The text follows PerfMonger's summarizer (perfmonger-summarizer.go):
// its Printf templates and its arithmetic, so the digits agree.
#include "playback/summary.hh"

#include "proto/json.hh"
#include "playback/rates.hh"

namespace pm {
namespace {

// prefix, v as %.<precision>f, suffix, newline.
void Line(std::string& out, std::string_view prefix, double v, int precision,
          std::string_view suffix) {
  out.append(prefix);
  AppendFixed(out, v, precision);
  out.append(suffix);
  out.push_back('\n');
}

void AppendCpuBlock(std::string& out, const CpuRates& cpu) {
  const CpuUsage& a = cpu.all;
  out.append("* Average CPU usage (MAX: ");
  AppendInt(out, 100 * cpu.num_core);
  out.append(" %)\n");
  double max = static_cast<double>(cpu.num_core) * 100.0;
  Line(out, "  * Non-idle usage: ", max - a.idle - a.iowait, 2, " %");
  Line(out, "       %usr: ", a.usr + a.nice, 2, " %");
  Line(out, "       %sys: ", a.sys, 2, " %");
  Line(out, "       %irq: ", a.hardirq, 2, " %");
  Line(out, "      %soft: ", a.softirq, 2, " %");
  Line(out, "     %other: ", a.steal, 2, " %");
  Line(out, "  * Idle usage: ", a.idle + a.iowait, 2, " %");
  Line(out, "    %iowait: ", a.iowait, 2, " %");
  Line(out, "      %idle: ", a.idle, 2, " %");
  out.push_back('\n');
}

double Megabytes(int64_t sectors) {
  return static_cast<double>(sectors * 512) / 1024.0 / 1024.0;
}

void AppendDiskBlock(std::string& out, std::string_view name, const DiskRates& d) {
  out.append("* Average DEVICE usage: ").append(name).push_back('\n');
  // PerfMonger keeps sectors/s; rkbyteps is exactly half of it.
  double rd_secps = d.rkbyteps * 2.0, wr_secps = d.wkbyteps * 2.0;
  Line(out, "        read IOPS: ", d.riops, 2, "");
  Line(out, "       write IOPS: ", d.wiops, 2, "");
  Line(out, "  read throughput: ", rd_secps * 512.0 / 1024.0 / 1024.0, 2, " MB/s");
  Line(out, " write throughput: ", wr_secps * 512.0 / 1024.0 / 1024.0, 2, " MB/s");
  Line(out, "     read latency: ", d.rlatency * 1000.0, 1, " usec");
  Line(out, "    write latency: ", d.wlatency * 1000.0, 1, " usec");
  Line(out, "      read amount: ", Megabytes(d.rsectors), 2, " MB");
  Line(out, "     write amount: ", Megabytes(d.wsectors), 2, " MB");
  out.push_back('\n');
}

void AppendNetBlock(std::string& out, std::string_view name, const NetRates& n) {
  out.append("* Average NETWORK usage: ").append(name).push_back('\n');
  Line(out, "    RX throughput: ", n.rxkbyteps, 2, " KB/s");
  Line(out, "       RX packets: ", n.rxpktps, 2, " /s");
  Line(out, "        RX errors: ", n.rxerrps, 2, " /s");
  Line(out, "         RX drops: ", n.rxdropps, 2, " /s");
  Line(out, "    TX throughput: ", n.txkbyteps, 2, " KB/s");
  Line(out, "       TX packets: ", n.txpktps, 2, " /s");
  Line(out, "        TX errors: ", n.txerrps, 2, " /s");
  Line(out, "         TX drops: ", n.txdropps, 2, " /s");
  out.push_back('\n');
}

// Per device, sorted, then "total" when there is more than one.
template <typename T, typename F>
void AppendBlocks(std::string& out,
                  const std::vector<std::pair<std::string, T>>& devices,
                  const T& total, F block) {
  for (const auto& [name, rates] : devices) block(out, name, rates);
  if (devices.size() > 1) block(out, "total", total);
}

void MemLine(std::string& out, std::string_view prefix, int64_t kb) {
  out.append(prefix);
  AppendInt(out, kb);
  out.append(" kB\n");
}

void MemLine(std::string& out, std::string_view prefix, uint64_t kb) {
  out.append(prefix);
  AppendUint(out, kb);  // kB counts: unsigned, as recorded
  out.append(" kB\n");
}

void AppendMemBlock(std::string& out, const MemCounters& m) {
  auto kb = [&](int i) { return uint64_t{m[i]}; };
  out.append("* Memory usage (last sample)\n");
  MemLine(out, "        mem total: ", kb(0));
  MemLine(out, "         mem used: ", MemUsed(m));
  MemLine(out, "         mem free: ", kb(1));
  MemLine(out, "    mem available: ", kb(2));
  MemLine(out, "          buffers: ", kb(3));
  MemLine(out, "           cached: ", kb(4));
  MemLine(out, "       swap total: ", kb(8));
  MemLine(out, "        swap free: ", kb(9));
  MemLine(out, "            dirty: ", kb(10));
  MemLine(out, "        writeback: ", kb(11));
  out.push_back('\n');
}

// Text-safe: control bytes as \n, \t, \xNN; everything else verbatim.
void AppendPrintable(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '\n') out.append("\\n");
    else if (c == '\t') out.append("\\t");
    else if (c < 0x20 || c == 0x7f)
      out.append("\\x").append(1, kHex[c >> 4]).push_back(kHex[c & 0xf]);
    else out.push_back(ch);
  }
}

void AppendMetaBlock(std::string& out, const MetaList& meta) {
  out.append("Metadata:\n");
  for (const auto& [key, value] : meta) {
    out.append("  ");
    AppendPrintable(out, key);
    out.append(": ");
    AppendPrintable(out, value);
    out.push_back('\n');
  }
  out.push_back('\n');
}

bool HasRates(const SummaryInput& in) {
  return in.last->time_ns > in.first->time_ns;
}

PairRates SummaryRates(const SummaryInput& in) {
  RateOptions options;
  options.disk_only = in.disk_only;
  return ComputeRates(*in.first, *in.last, in.first->time_ns, options);
}

void AppendMetaJson(std::string& out, const MetaList& meta) {
  char sep = '{';
  for (const auto& [key, value] : meta) {
    out.push_back(sep);
    sep = ',';
    AppendJsonKey(out, key);
    AppendJsonString(out, value);
  }
  out.push_back('}');
}

void AppendTitle(std::string& out, const SummaryInput& in, const SummaryPauses& p) {
  out.append("== performance summary");
  if (!in.title_file.empty()) out.append(" of '").append(in.title_file).append("'");
  if (p.phase) {
    out.append(", phase '");
    AppendPrintable(out, *p.phase);
    out.append("'");
  }
  out.append(" ==\n");
}

}  // namespace

std::string SummaryText(const SummaryInput& in, const SummaryPauses& p) {
  std::string out;
  AppendTitle(out, in, p);
  double duration = GoSeconds(in.last->time_ns - in.first->time_ns);
  if (p.has_pauses) {
    Line(out, "\nDuration: ", duration, 3, " sec");
    Line(out, "Paused: ", GoSeconds(p.paused_ns), 3, " sec\n");
  } else {
    Line(out, "\nDuration: ", duration, 3, " sec\n");
  }
  PairRates r;
  if (HasRates(in)) r = SummaryRates(in);
  if (r.has_cpu) AppendCpuBlock(out, r.cpu);
  if (r.has_disk) AppendBlocks(out, r.disks, r.disk_total, AppendDiskBlock);
  if (!in.meta.empty()) AppendMetaBlock(out, in.meta);
  if (in.all && r.has_net) AppendBlocks(out, r.nets, r.net_total, AppendNetBlock);
  if (in.all && in.last->has_mem) AppendMemBlock(out, in.last->mem);
  return out;
}

std::string SummaryJson(const SummaryInput& in, const SummaryPauses& p) {
  std::string out = "{";
  if (p.phase) {
    out.append("\"phase\":");
    AppendJsonString(out, *p.phase);
    out.push_back(',');
  }
  out.append("\"exectime\":");
  AppendFixed(out, GoSeconds(in.last->time_ns - in.first->time_ns), 3);
  if (p.has_pauses) {
    out.append(",\"paused_time\":");
    AppendFixed(out, GoSeconds(p.paused_ns), 3);
  }
  PairRates r;
  if (HasRates(in)) r = SummaryRates(in);
  if (r.has_cpu) { out.append(",\"cpu\":"); AppendCpuJson(out, r.cpu); }
  if (r.has_intr) { out.append(",\"intr\":"); AppendIntrJson(out, r.intr); }
  if (r.has_disk) { out.append(",\"disk\":"); AppendDiskJson(out, r); }
  if (r.has_net) { out.append(",\"net\":"); AppendNetJson(out, r); }
  if (in.last->has_mem) { out.append(",\"mem\":"); AppendMemJson(out, in.last->mem); }
  if (!in.meta.empty()) { out.append(",\"meta\":"); AppendMetaJson(out, in.meta); }
  out.append("}\n");
  return out;
}

}  // namespace pm
