// PerfMonger's WriteJsonTo methods: compact JSON, keys in its order,
// `%.2f` everywhere but disk latency (`%.3f`), memory as integers.
#include <array>
#include <iterator>

#include "proto/json.hh"
#include "playback/rates.hh"
#include "playback/reports.hh"

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

// `,"key":` (or `{"key":`) and v with `precision` decimals.
char* Member(char* p, std::string_view key, double v, int precision = 2) {
  return WriteFixed(Put(p, key), v, precision);
}

void AppendCoreJson(std::string& out, const CpuUsage& u) {
  char buf[10 * kFixedMember + 2];
  char* p = Member(buf, "{\"usr\":", u.usr);
  p = Member(p, ",\"nice\":", u.nice);
  p = Member(p, ",\"sys\":", u.sys);
  p = Member(p, ",\"idle\":", u.idle);
  p = Member(p, ",\"iowait\":", u.iowait);
  p = Member(p, ",\"hardirq\":", u.hardirq);
  p = Member(p, ",\"softirq\":", u.softirq);
  p = Member(p, ",\"steal\":", u.steal);
  p = Member(p, ",\"guest\":", u.guest);
  p = Member(p, ",\"guestnice\":", u.guestnice);
  AppendWritten(out, buf, Put(p, '}'));
}

void AppendDoubles(std::string& out, const std::vector<double>& v) {
  out.push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    char buf[1 + kFixedTextMax];
    char* p = i > 0 ? Put(buf, ',') : buf;
    AppendWritten(out, buf, WriteFixed(p, v[i], 2));
  }
  out.push_back(']');
}

constexpr size_t kDiskEntryMax = 9 * kFixedMember + 2;

char* PutDiskEntry(char* p, const DiskRates& d) {
  p = Member(p, "{\"riops\":", d.riops);
  p = Member(p, ",\"wiops\":", d.wiops);
  p = Member(p, ",\"rkbyteps\":", d.rkbyteps);
  p = Member(p, ",\"wkbyteps\":", d.wkbyteps);
  p = Member(p, ",\"rlatency\":", d.rlatency, 3);
  p = Member(p, ",\"wlatency\":", d.wlatency, 3);
  p = Member(p, ",\"rsize\":", d.rsize);
  p = Member(p, ",\"wsize\":", d.wsize);
  p = Member(p, ",\"qlen\":", d.qlen);
  return Put(p, '}');
}

constexpr size_t kNetEntryMax = 8 * kFixedMember + 2;

char* PutNetEntry(char* p, const NetRates& n) {
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

// Names no longer than this with nothing to escape are written on the
// stack with what surrounds them; others go through AppendJsonString.
constexpr size_t kShortName = 64;

bool IsShortName(std::string_view name) {
  return name.size() <= kShortName && IsJsonVerbatim(name);
}

// "a","b",...: the short names gathered into one append per kilobyte.
template <typename T>
void AppendNames(std::string& out, const std::vector<std::pair<std::string, T>>& devices) {
  char buf[1024];
  char* p = buf;
  for (size_t i = 0; i < devices.size(); ++i) {
    std::string_view name = devices[i].first;
    if (static_cast<size_t>(buf + sizeof buf - p) < kShortName + 3 || !IsShortName(name)) {
      AppendWritten(out, buf, p);
      p = buf;
    }
    if (i > 0) p = Put(p, ',');
    if (!IsShortName(name)) {
      AppendWritten(out, buf, p);
      p = buf;
      AppendJsonString(out, name);
      continue;
    }
    p = Put(Put(Put(p, '"'), name), '"');
  }
  AppendWritten(out, buf, p);
}

// {"devices":[names],"<name>":{..},...,"total":{..}}; put_entry writes
// at most kEntryMax bytes.
template <size_t kEntryMax, typename T, typename F>
void AppendDevices(std::string& out,
                   const std::vector<std::pair<std::string, T>>& devices,
                   const T& total, F put_entry) {
  out.append("{\"devices\":[");
  AppendNames(out, devices);
  out.push_back(']');
  for (const auto& [name, entry] : devices) {
    char buf[kShortName + 4 + kEntryMax];  // `,"name":{..}` in one append
    char* p = buf;
    if (IsShortName(name)) p = Put(Put(Put(p, ",\""), name), "\":");
    else NameKey(out, name);
    AppendWritten(out, buf, put_entry(p, entry));
  }
  char buf[16 + kEntryMax];
  AppendWritten(out, buf, put_entry(Put(buf, ",\"total\":"), total));
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
  char buf[24 + kUintTextMax];  // both keys and an int
  char* p = WriteInt(Put(buf, "{\"num_core\":"), cpu.num_core);
  AppendWritten(out, buf, Put(p, ",\"all\":"));
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
  AppendDevices<kDiskEntryMax>(out, rates.disks, rates.disk_total, PutDiskEntry);
}

void AppendNetJson(std::string& out, const PairRates& rates) {
  AppendDevices<kNetEntryMax>(out, rates.nets, rates.net_total, PutNetEntry);
}

void AppendMemJson(std::string& out, const MemCounters& mem) {
  char buf[kMemKeyCount * kUintMember + 1];
  char* p = buf;
  for (size_t i = 0; i < kMemKeyCount; ++i) {
    p = PutSlot(p, kMemMembers[i].text, kMemMembers[i].size);
    int index = kMemKeys[i].index;
    if (index < 0) p = WriteInt(p, MemUsed(mem));
    else p = WriteUint(p, mem[static_cast<size_t>(index)]);  // kB counts: unsigned, as recorded
  }
  AppendWritten(out, buf, Put(p, '}'));
}

void AppendPlayJson(std::string& out, const Pair& pair) {
  char buf[2 * kFixedMember];
  char* p = Member(buf, "{\"time\":", pair.time, 3);
  AppendWritten(out, buf, Member(p, ",\"elapsed_time\":", pair.elapsed_time, 3));
  PairRates rates;  // the collectors not yet reports
  RateOptions options;
  options.disk_only = pair.options.disk_only;
  ComputeRates(pair.prev, pair.cur, pair.origin_ns, options, rates);
  std::span<const ReportEntry> reports = Reports();
  for (size_t i = 0; i < reports.size(); ++i) {
    if (reports[i].report) {
      reports[i].report->play(out, pair);
      continue;
    }
    switch (i) {
      case 0: if (rates.has_cpu) { out.append(",\"cpu\":"); AppendCpuJson(out, rates.cpu); } break;
      case 1: if (rates.has_intr) { out.append(",\"intr\":"); AppendIntrJson(out, rates.intr); } break;
      case 2: if (rates.has_disk) { out.append(",\"disk\":"); AppendDiskJson(out, rates); } break;
      case 3: if (rates.has_net) { out.append(",\"net\":"); AppendNetJson(out, rates); } break;
      case 4: if (rates.has_mem) { out.append(",\"mem\":"); AppendMemJson(out, rates.mem); } break;
    }
  }
  out.push_back('}');
}

}  // namespace pm
