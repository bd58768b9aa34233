// PerfMonger's WriteJsonTo methods: compact JSON, keys in its order,
// `%.2f` everywhere but disk latency (`%.3f`), memory as integers.
#include <charconv>
#include <cmath>

#include "proto/json.hh"
#include "playback/rates.hh"

namespace pm {
namespace {

// `,"key":` for this file's fixed ASCII keys: nothing to escape.
void Key(std::string& out, std::string_view key) {
  out.append(",\"");
  out.append(key);
  out.append("\":");
}

// `,"name":` for a device or interface name, escaped as Go does.
void NameKey(std::string& out, std::string_view name) {
  out.push_back(',');
  AppendJsonKey(out, name);
}

void Fixed2(std::string& out, std::string_view key, double v) {
  Key(out, key);
  AppendFixed(out, v, 2);
}

void AppendCoreJson(std::string& out, const CpuUsage& u) {
  out.append("{\"usr\":");
  AppendFixed(out, u.usr, 2);
  Fixed2(out, "nice", u.nice);
  Fixed2(out, "sys", u.sys);
  Fixed2(out, "idle", u.idle);
  Fixed2(out, "iowait", u.iowait);
  Fixed2(out, "hardirq", u.hardirq);
  Fixed2(out, "softirq", u.softirq);
  Fixed2(out, "steal", u.steal);
  Fixed2(out, "guest", u.guest);
  Fixed2(out, "guestnice", u.guestnice);
  out.push_back('}');
}

void AppendDoubles(std::string& out, const std::vector<double>& v) {
  out.push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendFixed(out, v[i], 2);
  }
  out.push_back(']');
}

void AppendDiskEntry(std::string& out, const DiskRates& d) {
  out.append("{\"riops\":");
  AppendFixed(out, d.riops, 2);
  Fixed2(out, "wiops", d.wiops);
  Fixed2(out, "rkbyteps", d.rkbyteps);
  Fixed2(out, "wkbyteps", d.wkbyteps);
  Key(out, "rlatency");
  AppendFixed(out, d.rlatency, 3);
  Key(out, "wlatency");
  AppendFixed(out, d.wlatency, 3);
  Fixed2(out, "rsize", d.rsize);
  Fixed2(out, "wsize", d.wsize);
  Fixed2(out, "qlen", d.qlen);
  out.push_back('}');
}

void AppendNetEntry(std::string& out, const NetRates& n) {
  out.append("{\"rxkbyteps\":");
  AppendFixed(out, n.rxkbyteps, 2);
  Fixed2(out, "rxpktps", n.rxpktps);
  Fixed2(out, "rxerrps", n.rxerrps);
  Fixed2(out, "rxdropps", n.rxdropps);
  Fixed2(out, "txkbyteps", n.txkbyteps);
  Fixed2(out, "txpktps", n.txpktps);
  Fixed2(out, "txerrps", n.txerrps);
  Fixed2(out, "txdropps", n.txdropps);
  out.push_back('}');
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
  Key(out, "total");
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

}  // namespace

std::span<const PlayMemKey> PlayMemKeys() { return kMemKeys; }

void AppendCpuJson(std::string& out, const CpuRates& cpu) {
  out.append("{\"num_core\":");
  AppendInt(out, cpu.num_core);
  Key(out, "all");
  AppendCoreJson(out, cpu.all);
  Key(out, "cores");
  out.push_back('[');
  for (size_t i = 0; i < cpu.cores.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendCoreJson(out, cpu.cores[i]);
  }
  out.append("]}");
}

void AppendIntrJson(std::string& out, const IntrRates& intr) {
  out.append("{\"core_dev_intr\":");
  AppendDoubles(out, intr.core_dev_intr);
  Key(out, "core_sys_intr");
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
  char sep = '{';
  for (const PlayMemKey& k : kMemKeys) {
    out.push_back(sep);
    sep = ',';
    out.push_back('"');
    out.append(k.key);
    out.append("\":");
    if (k.index < 0) AppendInt(out, MemUsed(mem));
    else AppendUint(out, mem[k.index]);  // kB counts: unsigned, as recorded
  }
  out.push_back('}');
}

void AppendPlayJson(std::string& out, const PairRates& rates) {
  out.append("{\"time\":");
  AppendFixed(out, rates.time, 3);
  Key(out, "elapsed_time");
  AppendFixed(out, rates.elapsed_time, 3);
  if (rates.has_cpu) { Key(out, "cpu"); AppendCpuJson(out, rates.cpu); }
  if (rates.has_intr) { Key(out, "intr"); AppendIntrJson(out, rates.intr); }
  if (rates.has_disk) { Key(out, "disk"); AppendDiskJson(out, rates); }
  if (rates.has_net) { Key(out, "net"); AppendNetJson(out, rates); }
  if (rates.has_mem) { Key(out, "mem"); AppendMemJson(out, rates.mem); }
  for (size_t t = 0; t < kRowTableCount; ++t) {
    const RowReport& report = RowReportOf(t);
    // Without them, PerfMonger's lines stay as they were.
    if (!rates.tables[t].has || report.nested) continue;
    Key(out, report.key);
    report.play_json(out, rates.tables[t], rates);
  }
  out.push_back('}');
}

}  // namespace pm
