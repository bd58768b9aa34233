// PerfMonger's WriteJsonTo methods: compact JSON, keys in its order,
// `%.2f` everywhere but disk latency (`%.3f`), memory as integers.
#include <array>
#include <iterator>

#include "playback/play_text.hh"
#include "proto/json.hh"
#include "playback/rates.hh"
#include "playback/reports.hh"

namespace pm {
namespace {

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

void AppendIntrJson(std::string& out, const IntrRates& intr) {
  out.append("{\"core_dev_intr\":");
  AppendDoubles(out, intr.core_dev_intr);
  out.append(",\"core_sys_intr\":");
  AppendDoubles(out, intr.core_sys_intr);
  out.push_back('}');
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
      case 1: if (rates.has_intr) { out.append(",\"intr\":"); AppendIntrJson(out, rates.intr); } break;
      case 4: if (rates.has_mem) { out.append(",\"mem\":"); AppendMemJson(out, rates.mem); } break;
    }
  }
  out.push_back('}');
}

}  // namespace pm
