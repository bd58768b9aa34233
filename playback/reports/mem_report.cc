// The mem collector (member "mem": /proc/meminfo, kB; HugePages_* counts)
// in every output. Memory is a level: each output shows the later sample.
//   play     "mem":{mem_total mem_used mem_free buffers cached ...} (PerfMonger's
//            29 keys; mem_used = MemTotal − MemFree − Buffers − Cached −
//            SReclaimable, as Go's int64)
//   summary  with --all, "Memory usage (last sample)", leaving out what the
//            recording never measured; --json "mem"
//   csv      mem.<key>
//   metrics  node_memory_<Field>_bytes gauges (kB × 1024),
//            node_memory_HugePages_{Total,Free,Rsvd,Surp}
//   plot     mem.dat (PerfMonger's, with hugepagesize); chart mem (stacked)
#include <array>
#include <string>

#include "playback/outputs/export_csv.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/reports/play_text.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/stat_row.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/mem.hh"

namespace pm {
namespace {

// summary's text block starts "* " and it (Report::heading).
constexpr std::string_view kHeading = "Memory usage (last sample)";

const size_t kMem = MemberIndexOf("mem");

// MemTotal − MemFree − Buffers − Cached − SReclaimable, as Go's int64.
int64_t MemUsed(std::span<const uint64_t> m) {
  return static_cast<int64_t>(m[0] - m[1] - m[3] - m[4] - m[16]);
}
static_assert(kMemFields[16] == "SReclaimable" && kMemFields[3] == "Buffers");

// PerfMonger's keys in order, with their kMemFields index (-1: mem_used).
struct Key {
  std::string_view key;
  int index;
};
constexpr Key kKeys[] = {
    {"mem_total", 0}, {"mem_used", -1}, {"mem_free", 1}, {"buffers", 3},
    {"cached", 4}, {"swap_cached", 5}, {"active", 6}, {"inactive", 7},
    {"swap_total", 8}, {"swap_free", 9}, {"dirty", 10}, {"writeback", 11},
    {"anon_pages", 12}, {"mapped", 13}, {"shmem", 14}, {"slab", 15},
    {"s_reclaimable", 16}, {"s_unreclaim", 17}, {"kernel_stack", 18},
    {"page_tables", 19}, {"nfs_unstable", 20}, {"bounce", 21},
    {"commit_limit", 22}, {"committed_as", 23}, {"anon_huge_pages", 24},
    {"huge_pages_total", 25}, {"huge_pages_free", 26},
    {"huge_pages_rsvd", 27}, {"huge_pages_surp", 28},
};
constexpr size_t kKeyCount = std::size(kKeys);

int64_t Value(const Key& k, std::span<const uint64_t> m) {
  return k.index < 0 ? MemUsed(m) : static_cast<int64_t>(m[static_cast<size_t>(k.index)]);
}

// `,"key":` of each key in a fixed-size slot, so that writing one is a
// fixed 24-byte copy (the rest cut) instead of a memcpy call per key.
struct Slot {
  char text[24] = {};
  size_t size = 0;
};

constexpr std::array<Slot, kKeyCount> Slots() {
  std::array<Slot, kKeyCount> slots{};
  for (size_t i = 0; i < kKeyCount; ++i) {
    Slot& m = slots[i];
    m.text[m.size++] = i == 0 ? '{' : ',';
    m.text[m.size++] = '"';
    for (char c : kKeys[i].key) m.text[m.size++] = c;
    m.text[m.size++] = '"';
    m.text[m.size++] = ':';
  }
  return slots;
}
constexpr std::array<Slot, kKeyCount> kSlots = Slots();

void Play(std::string& out, const Pair& p) {
  const MemberRows& mem = p.cur.members[kMem];
  if (!mem.has) return;
  std::span<const uint64_t> m = mem.row(0);
  char buf[8 + kKeyCount * kUintMember + 1];
  char* q = Put(buf, ",\"mem\":");
  for (size_t i = 0; i < kKeyCount; ++i) {
    q = PutSlot(q, kSlots[i].text, kSlots[i].size);
    if (kKeys[i].index < 0) q = WriteInt(q, MemUsed(m));
    else q = WriteUint(q, m[static_cast<size_t>(kKeys[i].index)]);  // kB: unsigned, as recorded
  }
  AppendWritten(out, buf, Put(q, '}'));
}

void MemLine(std::string& out, std::string_view prefix, uint64_t kb) {
  out.append(prefix);
  AppendUint(out, kb);  // kB counts: unsigned, as recorded
  out.append(" kB\n");
}

// The lines of the values the recording has; mem used needs all five of
// MemTotal MemFree Buffers Cached SReclaimable.
void SummaryText(std::string& out, const Pair& p) {
  const MemberRows& mem = p.cur.members[kMem];
  if (!p.options.all || !mem.has) return;
  std::span<const uint64_t> m = mem.row(0);
  auto has = [&](size_t i) { return p.options.Recorded(kMem, i); };
  auto line = [&](std::string_view prefix, size_t i) {
    if (has(i)) MemLine(out, prefix, m[i]);
  };
  out.append("* ").append(kHeading).push_back('\n');
  line("        mem total: ", 0);
  if (has(0) && has(1) && has(3) && has(4) && has(16))
    MemLine(out, "         mem used: ", static_cast<uint64_t>(MemUsed(m)));
  line("         mem free: ", 1);
  line("    mem available: ", 2);
  line("          buffers: ", 3);
  line("           cached: ", 4);
  line("       swap total: ", 8);
  line("        swap free: ", 9);
  line("            dirty: ", 10);
  line("        writeback: ", 11);
  out.push_back('\n');
}

// summary --stats: levels in MiB (2^20 bytes), each sample's, so the
// peak between the first and the last sample shows; what the recording
// never measured is left out.
void Stats(StatRow& row, const Pair& p) {
  const MemberRows& mem = p.cur.members[kMem];
  if (!mem.has) return;
  std::span<const uint64_t> m = mem.row(0);
  auto has = [&](size_t i) { return p.options.Recorded(kMem, i); };
  auto mib = [](double kb) { return kb / 1024.0; };
  if (has(0) && has(1) && has(3) && has(4) && has(16))
    row.Level("mem", "", "used", "MiB", mib(static_cast<double>(MemUsed(m))));
  if (has(0) && has(2) && m[0] > 0)  // Gregg's USE: memory in use, of MemTotal
    row.Level("mem", "", "in_use", "%",
              100.0 * (1.0 - static_cast<double>(m[2]) / static_cast<double>(m[0])));
  constexpr std::pair<std::string_view, size_t> kLevels[] = {
      {"available", 2}, {"free", 1}, {"cached", 4}, {"dirty", 10}};
  for (const auto& [name, i] : kLevels)
    if (has(i)) row.Level("mem", "", name, "MiB", mib(static_cast<double>(m[i])));
}

void Csv(CsvRow& row, const Pair& p) {
  const MemberRows& mem = p.cur.members[kMem];
  if (!mem.has) return;
  static constexpr std::array<std::string_view, kKeyCount> kCsvKeys = [] {
    std::array<std::string_view, kKeyCount> keys;
    for (size_t i = 0; i < kKeyCount; ++i) keys[i] = kKeys[i].key;
    return keys;
  }();
  row.Group("mem", "", kCsvKeys);
  for (const Key& k : kKeys) row.Int(Value(k, mem.row(0)));
}

bool IsHugePageCount(std::string_view field) { return field.starts_with("HugePages_"); }

void Families(MetricFamilies& out) {
  for (std::string_view f : kMemFields) {
    bool count = IsHugePageCount(f);
    std::string name = std::string("node_memory_").append(f).append(count ? "" : "_bytes");
    out.Gauge(name, count ? "" : "bytes",
              std::string("Memory information field ").append(name.substr(12)).append("."));
  }
}

void Series(MetricRow& row, const RawSample& s) {
  const MemberRows& mem = s.members[kMem];
  if (!mem.has) return;
  uint32_t base = row.Block("", [&] {
    uint32_t first = row.Add(0, Scale::kTimes1024, "");
    for (uint32_t i = 1; i < kMemFields.size(); ++i)
      row.Add(i, IsHugePageCount(kMemFields[i]) ? Scale::kOne : Scale::kTimes1024, "");
    return first;
  });
  row.Put(base, mem.row(0));
}

constexpr MetricsSlot kMetrics = {Families, {}, Series};

constexpr PlotFileSpec kFiles[] = {
    {"mem.dat",
     "#elapsed_time\tmem_total\tmem_used\tmem_free\tbuffers\tcached\tswap_cached\tactive\t"
     "inactive\tswap_total\tswap_free\tdirty\twriteback\tanon_pages\tmapped\tshmem\tslab\t"
     "s_reclaimable\ts_unreclaim\tkernel_stack\tpage_tables\tnfs_unstable\tbounce\t"
     "commit_limit\tcommitted_as\tanon_huge_pages\thuge_pages_total\thuge_pages_free\t"
     "huge_pages_rsvd\thuge_pages_surp\thugepagesize\n",
     false}};

// play's keys, then Hugepagesize, which PerfMonger's plot adds.
void PlotPair(PlotLines& out, const Pair& p) {
  const MemberRows& mem = p.cur.members[kMem];
  if (!mem.has) return;
  std::string& line = out.Line(out.Block(0, 0, "", ""));
  for (const Key& k : kKeys) line.append("\t").append(std::to_string(Value(k, mem.row(0))));
  line.append("\t").append(std::to_string(static_cast<int64_t>(mem.row(0)[29])));
  line.push_back('\n');
}
static_assert(kMemFields[29] == "Hugepagesize");

// Memory stacked the way it adds up to MemTotal: used, buffers, page
// cache, reclaimable slab, free (GiB).
constexpr ChartLayer kLayers[] = {
    {"free", "#c7e9c0", "($3+$5+$6+$18+$4)/1048576.0"},
    {"reclaimable slab", "#fdd0a2", "($3+$5+$6+$18)/1048576.0"},
    {"page cache", "#9ecae1", "($3+$5+$6)/1048576.0"},
    {"buffers", "#6baed6", "($3+$5)/1048576.0"},
    {"used", "#d62728", "($3)/1048576.0"},
};
constexpr ChartSpec kCharts[] = {
    {.name = "mem", .title = "Memory", .ylabel = "memory (GiB)", .kind = ChartKind::kStack,
     .layers = kLayers},
};
constexpr PlotSlot kPlot = {kFiles, PlotPair, kCharts};

// live: the later sample's used (play's mem_used), cache (buffers, page
// cache and reclaimable slab: what used leaves out) and free, in bytes.
constexpr LiveColumn kLiveColumns[] = {{"used", 5, LiveUnit::kBytes},
                                       {"cach", 5, LiveUnit::kBytes},
                                       {"free", 5, LiveUnit::kBytes}};

bool LiveValues(const Pair& p, std::string_view part, std::span<double> out) {
  const MemberRows& mem = p.cur.members[kMem];
  if (!part.empty() || !mem.has || mem.rows() == 0) return false;
  std::span<const uint64_t> m = mem.row(0);
  out[0] = static_cast<double>(MemUsed(m)) * 1024;
  out[1] = static_cast<double>(m[3] + m[4] + m[16]) * 1024;
  out[2] = static_cast<double>(m[1]) * 1024;
  return true;
}
constexpr LiveSlot kLive = {"memory", kLiveColumns, nullptr, LiveValues};

}  // namespace

extern const Report kMemReport;
constexpr Report kMemReport = {
    .play = Play,
    .summary_text = SummaryText,
    .heading = kHeading,
    .summary_json = Play,  // the later sample's, rated or not
    .phases = &kCounterGaps,
    .stats = Stats,
    .csv = Csv,
    .openmetrics = &kMetrics,
    .plot = &kPlot,
    .live = &kLive,
};

}  // namespace pm
