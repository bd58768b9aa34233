// PerfMonger's WriteJsonTo methods: compact JSON, keys in its order,
// `%.2f` everywhere but disk latency (`%.3f`), memory as integers.
#include <array>
#include <iterator>

#include "proto/json.hh"
#include "playback/rates.hh"

namespace pm {
namespace {

// Room for one `,"key":` of this file (none is longer than 24 bytes) and
// its value.
constexpr size_t kFixedMember = 24 + kFixedTextMax;
constexpr size_t kUintMember = 24 + kUintTextMax;

// `,"name":` for a device or interface name, escaped as Go does.
void NameKey(std::string& out, std::string_view name) {
  out.push_back(',');
  AppendJsonKey(out, name);
}

void AppendCoreJson(std::string& out, const CpuUsage& u) {
  StackText<10 * kFixedMember + 2> t;
  t.Lit("{\"usr\":").Fixed(u.usr, 2)
      .Lit(",\"nice\":").Fixed(u.nice, 2)
      .Lit(",\"sys\":").Fixed(u.sys, 2)
      .Lit(",\"idle\":").Fixed(u.idle, 2)
      .Lit(",\"iowait\":").Fixed(u.iowait, 2)
      .Lit(",\"hardirq\":").Fixed(u.hardirq, 2)
      .Lit(",\"softirq\":").Fixed(u.softirq, 2)
      .Lit(",\"steal\":").Fixed(u.steal, 2)
      .Lit(",\"guest\":").Fixed(u.guest, 2)
      .Lit(",\"guestnice\":").Fixed(u.guestnice, 2)
      .Char('}');
  t.AppendTo(out);
}

void AppendDoubles(std::string& out, const std::vector<double>& v) {
  out.push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    StackText<1 + kFixedTextMax> t;
    if (i > 0) t.Char(',');
    t.Fixed(v[i], 2).AppendTo(out);
  }
  out.push_back(']');
}

void AppendDiskEntry(std::string& out, const DiskRates& d) {
  StackText<9 * kFixedMember + 2> t;
  t.Lit("{\"riops\":").Fixed(d.riops, 2)
      .Lit(",\"wiops\":").Fixed(d.wiops, 2)
      .Lit(",\"rkbyteps\":").Fixed(d.rkbyteps, 2)
      .Lit(",\"wkbyteps\":").Fixed(d.wkbyteps, 2)
      .Lit(",\"rlatency\":").Fixed(d.rlatency, 3)
      .Lit(",\"wlatency\":").Fixed(d.wlatency, 3)
      .Lit(",\"rsize\":").Fixed(d.rsize, 2)
      .Lit(",\"wsize\":").Fixed(d.wsize, 2)
      .Lit(",\"qlen\":").Fixed(d.qlen, 2)
      .Char('}');
  t.AppendTo(out);
}

void AppendNetEntry(std::string& out, const NetRates& n) {
  StackText<8 * kFixedMember + 2> t;
  t.Lit("{\"rxkbyteps\":").Fixed(n.rxkbyteps, 2)
      .Lit(",\"rxpktps\":").Fixed(n.rxpktps, 2)
      .Lit(",\"rxerrps\":").Fixed(n.rxerrps, 2)
      .Lit(",\"rxdropps\":").Fixed(n.rxdropps, 2)
      .Lit(",\"txkbyteps\":").Fixed(n.txkbyteps, 2)
      .Lit(",\"txpktps\":").Fixed(n.txpktps, 2)
      .Lit(",\"txerrps\":").Fixed(n.txerrps, 2)
      .Lit(",\"txdropps\":").Fixed(n.txdropps, 2)
      .Char('}');
  t.AppendTo(out);
}

// {"devices":[names],"<name>":{..},...,"total":{..}}
template <typename T, typename F>
void AppendDevices(std::string& out,
                   const std::vector<std::pair<std::string, T>>& devices,
                   const T& total, F append_entry) {
  out.append("{\"devices\":[");
  for (size_t i = 0; i < devices.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendJsonString(out, devices[i].first);
  }
  out.push_back(']');
  for (const auto& [name, entry] : devices) {
    NameKey(out, name);
    append_entry(out, entry);
  }
  out.append(",\"total\":");
  append_entry(out, total);
  out.push_back('}');
}

constexpr PlayMemKey kMemKeys[] = {
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
constexpr size_t kMemKeyCount = std::size(kMemKeys);

// `,"key":` of each mem key in a fixed-size slot, so that writing one is a
// fixed 24-byte copy (the rest cut) instead of a memcpy call per key.
struct MemMember {
  char text[24] = {};
  size_t size = 0;
};

constexpr std::array<MemMember, kMemKeyCount> MemMembers() {
  std::array<MemMember, kMemKeyCount> members{};
  for (size_t i = 0; i < kMemKeyCount; ++i) {
    MemMember& m = members[i];
    m.text[m.size++] = i == 0 ? '{' : ',';
    m.text[m.size++] = '"';
    for (char c : kMemKeys[i].key) m.text[m.size++] = c;
    m.text[m.size++] = '"';
    m.text[m.size++] = ':';
  }
  return members;
}
constexpr std::array<MemMember, kMemKeyCount> kMemMembers = MemMembers();

}  // namespace

std::span<const PlayMemKey> PlayMemKeys() { return kMemKeys; }

void AppendCpuJson(std::string& out, const CpuRates& cpu) {
  StackText<16 + kUintTextMax> head;
  head.Lit("{\"num_core\":").Int(cpu.num_core).Lit(",\"all\":").AppendTo(out);
  AppendCoreJson(out, cpu.all);
  out.append(",\"cores\":[");
  for (size_t i = 0; i < cpu.cores.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendCoreJson(out, cpu.cores[i]);
  }
  out.append("]}");
}

void AppendIntrJson(std::string& out, const IntrRates& intr) {
  out.append("{\"core_dev_intr\":");
  AppendDoubles(out, intr.core_dev_intr);
  out.append(",\"core_sys_intr\":");
  AppendDoubles(out, intr.core_sys_intr);
  out.push_back('}');
}

void AppendDiskJson(std::string& out, const PairRates& rates) {
  AppendDevices(out, rates.disks, rates.disk_total, AppendDiskEntry);
}

void AppendNetJson(std::string& out, const PairRates& rates) {
  AppendDevices(out, rates.nets, rates.net_total, AppendNetEntry);
}

void AppendMemJson(std::string& out, const MemCounters& mem) {
  StackText<kMemKeyCount * kUintMember + 1> t;
  for (size_t i = 0; i < kMemKeyCount; ++i) {
    t.Lit(kMemMembers[i].text, kMemMembers[i].size);
    int index = kMemKeys[i].index;
    if (index < 0) t.Int(MemUsed(mem));
    else t.Uint(mem[static_cast<size_t>(index)]);  // kB counts: unsigned, as recorded
  }
  t.Char('}').AppendTo(out);
}

void AppendPlayJson(std::string& out, const PairRates& rates) {
  StackText<2 * kFixedMember> head;
  head.Lit("{\"time\":").Fixed(rates.time, 3)
      .Lit(",\"elapsed_time\":").Fixed(rates.elapsed_time, 3)
      .AppendTo(out);
  if (rates.has_cpu) { out.append(",\"cpu\":"); AppendCpuJson(out, rates.cpu); }
  if (rates.has_intr) { out.append(",\"intr\":"); AppendIntrJson(out, rates.intr); }
  if (rates.has_disk) { out.append(",\"disk\":"); AppendDiskJson(out, rates); }
  if (rates.has_net) { out.append(",\"net\":"); AppendNetJson(out, rates); }
  if (rates.has_mem) { out.append(",\"mem\":"); AppendMemJson(out, rates.mem); }
  for (size_t t = 0; t < kRowTableCount; ++t) {
    // Without them, PerfMonger's lines stay as they were.
    if (!rates.tables[t].has) continue;
    const RowReport& report = RowReportOf(t);
    if (report.nested) continue;
    out.append(",\"").append(report.key).append("\":");
    report.play_json(out, rates.tables[t], rates);
  }
  out.push_back('}');
}

}  // namespace pm
