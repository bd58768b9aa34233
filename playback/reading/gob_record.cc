#include "playback/reading/gob_record.hh"

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "proto/pgr_collector_spec.hh"
#include "proto/columns/cpu.hh"
#include "proto/columns/disk.hh"
#include "proto/columns/net.hh"
#include "proto/columns/mem.hh"

namespace pm::gob {
namespace {

using Names = std::span<const std::string_view>;

// Go's field names, in the order of the RawSample counter arrays.
constexpr std::array<std::string_view, 10> kCpuNames = {
    "User",    "Nice",    "Sys",   "Idle",  "Iowait",
    "Hardirq", "Softirq", "Steal", "Guest", "GuestNice"};
constexpr std::array<std::string_view, 11> kDiskNames = {
    "RdIos",     "RdMerges", "RdSectors", "RdTicks",    "WrIos",   "WrMerges",
    "WrSectors", "WrTicks",  "IosPgr",    "TotalTicks", "ReqTicks"};
// PerfMonger read /proc/net/dev's columns positionally into these.
constexpr std::array<std::string_view, 16> kNetNames = {
    "RxBytes", "RxPackets", "RxErrors",     "RxDrops",
    "RxFifo",  "RxFrame",   "RxCompressed", "RxMulticast",
    "TxBytes", "TxPackets", "TxErrors",     "TxDrops",
    "TxFifo",  "TxFrame",   "TxCompressed", "TxMulticast"};
// PerfMonger has no MemAvailable: that slot stays 0.
constexpr std::array<std::string_view, 30> kMemNames = {
    "MemTotal",       "MemFree",         "MemAvailable",   "Buffers",
    "Cached",         "SwapCached",      "Active",         "Inactive",
    "SwapTotal",      "SwapFree",        "Dirty",          "Writeback",
    "AnonPages",      "Mapped",          "Shmem",          "Slab",
    "SReclaimable",   "SUnreclaim",      "KernelStack",    "PageTables",
    "NFS_Unstable",   "Bounce",          "CommitLimit",    "Committed_AS",
    "AnonHugePages",  "HugePages_Total", "HugePages_Free", "HugePages_Rsvd",
    "HugePages_Surp", "Hugepagesize"};

// Seconds from 0001-01-01 (Go's zero time) to the Unix epoch.
constexpr int64_t kUnixToInternal = 62'135'596'800;
// Elements one record may hold (cores, devices, interrupt counts): a
// 1024-core machine with 1000 interrupt lines is far below this.
constexpr size_t kMaxElements = size_t{1} << 22;

int64_t BigEndian(std::string_view bytes) {
  uint64_t v = 0;
  for (char c : bytes) v = v << 8 | static_cast<uint8_t>(c);
  // Sign-extend from the width read.
  int shift = 64 - 8 * static_cast<int>(bytes.size());
  return static_cast<int64_t>(v << shift) >> shift;
}

const size_t kCpu = MemberIndexOf("cpu"), kProc = MemberIndexOf("proc"),
                 kIntr = MemberIndexOf("intr"), kDisk = MemberIndexOf("disk"),
                 kNet = MemberIndexOf("net"), kMem = MemberIndexOf("mem");
static_assert(kCpuNames.size() == kCpuFields.size() && kDiskNames.size() == kDiskBaseFields &&
              kNetNames.size() == kNetFields.size() && kMemNames.size() == kMemFields.size());

// A row appended to `m` (`m.width` zeros, live): its values.
std::span<uint64_t> AddRow(MemberRows& m, std::string name) {
  m.names.push_back(std::move(name));
  m.present.push_back(1);
  m.values.resize(m.values.size() + m.width);
  return m.row(m.rows() - 1);
}

// A member carried by this record, of `width` values a row.
MemberRows& Carried(RawSample& out, size_t member, size_t width) {
  MemberRows& m = out.members[member];
  m.has = true;
  m.width = width;
  return m;
}

class RecordDecoder {
 public:
  RecordDecoder(const TypeRegistry& types, WireReader& r)
      : types_(types), r_(r) {}

  void StatRecord(TypeId id, RawSample& out);

 private:
  void Cpu(TypeId id, RawSample& out);
  void Interrupt(TypeId id, RawSample& out);
  void Proc(TypeId id, RawSample& out);
  template <size_t N>
  void Entries(TypeId id, MemberRows& rows, const std::array<std::string_view, N>& names);
  void Mem(TypeId id, RawSample& out) {
    MemberRows& m = Carried(out, kMem, kMemNames.size());
    Counters(id, kMemNames, AddRow(m, ""));
  }
  struct IntrEntry {
    std::string irq;
    std::vector<uint64_t> counts;
  };
  IntrEntry ReadIntrEntry(TypeId id);
  void Counters(TypeId id, Names names, std::span<uint64_t> out,
                std::string* name = nullptr);
  // Calls each(elem_type) once per element of a slice of type `id`.
  template <class Each>
  void Slice(TypeId id, Each&& each);
  void Skip(TypeId id) { SkipValue(types_, r_, id); }

  const TypeRegistry& types_;
  WireReader& r_;
  size_t elements_left_ = kMaxElements;
};

template <class Each>
void RecordDecoder::Slice(TypeId id, Each&& each) {
  TypeId elem = 0;
  size_t n = ReadSliceHeader(types_, r_, id, elem);
  if (n > elements_left_) r_.Fail("too many elements in one record");
  elements_left_ -= n;
  while (n-- > 0) each(elem);
}

void RecordDecoder::Counters(TypeId id, Names names, std::span<uint64_t> out,
                             std::string* name) {
  StructFields fields(types_, r_, id);
  while (const Field* f = fields.Next()) {
    auto it = std::find(names.begin(), names.end(), f->name);
    if (it != names.end())
      out[static_cast<size_t>(it - names.begin())] = ReadCounter(r_, f->id);
    else if (name != nullptr && f->name == "Name")
      *name = ReadString(r_, f->id);
    else
      Skip(f->id);
  }
}

void RecordDecoder::StatRecord(TypeId id, RawSample& out) {
  StructFields fields(types_, r_, id);
  while (const Field* f = fields.Next()) {
    const std::string& n = f->name;
    if (n == "Time")
      out.time_ns = ReadTime(types_, r_, f->id);
    else if (n == "Cpu")
      Cpu(f->id, out);
    else if (n == "Interrupt")
      Interrupt(f->id, out);
    else if (n == "Proc")
      Proc(f->id, out);
    else if (n == "Disk")
      Entries(f->id, Carried(out, kDisk, kDiskFields.size()), kDiskNames);  // no discards
    else if (n == "Net")
      Entries(f->id, Carried(out, kNet, kNetNames.size()), kNetNames);
    else if (n == "Mem")
      Mem(f->id, out);
    else  // Softirq (always nil), and fields this reader does not know
      Skip(f->id);
  }
}

// CpuStat{All CpuCoreStat, NumCore int, CoreStats []CpuCoreStat}: rows
// "all", then "0", "1", ... (an All of zeros is omitted on the wire).
void RecordDecoder::Cpu(TypeId id, RawSample& out) {
  MemberRows& m = Carried(out, kCpu, kCpuNames.size());
  AddRow(m, "all");
  StructFields fields(types_, r_, id);
  while (const Field* f = fields.Next()) {
    if (f->name == "All") {
      Counters(f->id, kCpuNames, m.row(0));
    } else if (f->name == "CoreStats") {
      Slice(f->id, [&](TypeId elem) {
        Counters(elem, kCpuNames, AddRow(m, std::to_string(m.rows() - 1)));
      });
    } else {
      Skip(f->id);  // NumCore: the length of CoreStats
    }
  }
}

// InterruptStat{NumEntries uint, Entries []*InterruptStatEntry}: one row
// per entry, as many columns as its widest.
void RecordDecoder::Interrupt(TypeId id, RawSample& out) {
  std::vector<IntrEntry> entries;
  StructFields fields(types_, r_, id);
  while (const Field* f = fields.Next()) {
    if (f->name == "Entries")
      Slice(f->id, [&](TypeId elem) { entries.push_back(ReadIntrEntry(elem)); });
    else
      Skip(f->id);
  }
  size_t width = 0;
  for (const IntrEntry& e : entries) width = std::max(width, e.counts.size());
  MemberRows& m = Carried(out, kIntr, width);
  for (IntrEntry& e : entries) std::copy(e.counts.begin(), e.counts.end(), AddRow(m, e.irq).begin());
}

// InterruptStatEntry{IrqNo int, IrqType string, NumCore int,
// IntrCounts []int, Descr string}: a numbered row is named by its number.
RecordDecoder::IntrEntry RecordDecoder::ReadIntrEntry(TypeId id) {
  IntrEntry intr;
  int64_t irq_no = 0;
  StructFields fields(types_, r_, id);
  while (const Field* f = fields.Next()) {
    if (f->name == "IrqNo")
      irq_no = ReadInt(r_, f->id);
    else if (f->name == "IrqType")
      intr.irq = ReadString(r_, f->id);
    else if (f->name == "IntrCounts")
      Slice(f->id,
            [&](TypeId elem) { intr.counts.push_back(ReadCounter(r_, elem)); });
    else
      Skip(f->id);
  }
  if (intr.irq.empty()) intr.irq = std::to_string(irq_no);
  return intr;
}

// ProcStat{ContextSwitch, Fork int64}
void RecordDecoder::Proc(TypeId id, RawSample& out) {
  static_assert(kProcFields[0] == "ctxt" && kProcFields[1] == "processes");
  std::span<uint64_t> row = AddRow(Carried(out, kProc, 2), "");
  StructFields fields(types_, r_, id);
  while (const Field* f = fields.Next()) {
    if (f->name == "ContextSwitch")
      row[0] = ReadCounter(r_, f->id);
    else if (f->name == "Fork")
      row[1] = ReadCounter(r_, f->id);
    else
      Skip(f->id);
  }
}

// DiskStat{Entries []*DiskStatEntry{Major, Minor, Name, counters...}} and
// NetStat{Entries []*NetStatEntry{Name, counters...}}: named rows.
template <size_t N>
void RecordDecoder::Entries(TypeId id, MemberRows& m,
                            const std::array<std::string_view, N>& names) {
  StructFields fields(types_, r_, id);
  while (const Field* f = fields.Next()) {
    if (f->name != "Entries") {
      Skip(f->id);
      continue;
    }
    Slice(f->id, [&](TypeId elem) {
      std::span<uint64_t> row = AddRow(m, "");
      Counters(elem, names, row, &m.names.back());
    });
  }
}

}  // namespace

int64_t DecodeTime(std::string_view blob, uint64_t offset) {
  if (blob.empty() || (blob[0] != 1 && blob[0] != 2) ||
      blob.size() != (blob[0] == 1 ? 15u : 16u))
    Fail("bad time.Time encoding", offset);
  int64_t sec = BigEndian(blob.substr(1, 8));  // since 0001-01-01 UTC
  int64_t nsec = BigEndian(blob.substr(9, 4));
  if (nsec < 0 || nsec >= 1'000'000'000)
    Fail("bad time.Time nanoseconds", offset);
  // The zone offset (bytes 13-14, and 15 in version 2) does not move the
  // instant. Unix nanoseconds cover 1677..2262.
  constexpr int64_t kMaxSec = INT64_MAX / 1'000'000'000 - 1;
  if (sec < kUnixToInternal - kMaxSec || sec > kUnixToInternal + kMaxSec)
    Fail("time.Time out of range", offset);
  return (sec - kUnixToInternal) * 1'000'000'000 + nsec;
}

int64_t ReadTime(const TypeRegistry& types, WireReader& r, TypeId id) {
  uint64_t at = r.offset();
  return DecodeTime(ReadEncoded(types, r, id), at);
}

void DecodeStatRecord(const TypeRegistry& types, WireReader& r, TypeId id,
                      RawSample& out) {
  RecordDecoder(types, r).StatRecord(id, out);
}

void NoteLegacyFields(RecordingInfo& info) {
  std::vector<bool>& mem = info.recorded[kMem];
  mem.assign(kMemNames.size(), true);
  mem[2] = false;  // PerfMonger never recorded MemAvailable
  static_assert(kMemNames[2] == "MemAvailable");
}

int NumCore(const RawSample& s) {
  const MemberRows& cpu = s.members[kCpu];
  return cpu.has ? static_cast<int>(cpu.rows() - 1) : 0;
}

}  // namespace pm::gob
