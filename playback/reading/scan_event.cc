#include "playback/reading/scan_event.hh"

#include <limits>

#include "playback/reading/json_reader.hh"

namespace pm {

uint32_t ReadU32(JsonReader& r) {
  uint64_t v = r.ReadUint64();
  if (v > std::numeric_limits<uint32_t>::max()) r.Fail("a pid or uid above 2^32");
  return static_cast<uint32_t>(v);
}

std::optional<uint64_t> ReadOptional(JsonReader& r) {
  if (r.TryNull()) return std::nullopt;
  return r.ReadUint64();
}

namespace {

// [pid,ppid,start,uid,cpu_ns,read_bytes,write_bytes,"comm","cgroup",...]
void ReadProcess(JsonReader& r, ScannedProcess& p) {
  r.BeginArray();
  int i = 0;
  for (; r.NextElement(); ++i) {
    switch (i) {
      case 0: p.pid = ReadU32(r); break;
      case 1: p.ppid = ReadU32(r); break;
      case 2: p.start = r.ReadUint64(); break;
      case 3: p.uid = ReadU32(r); break;
      case 4: p.cpu_ns = r.ReadUint64(); break;
      case 5: p.read_bytes = ReadOptional(r); break;
      case 6: p.write_bytes = ReadOptional(r); break;
      case 7: p.comm = r.ReadString(); break;
      case 8: p.cgroup = r.ReadString(); break;
      default: r.SkipValue();
    }
  }
  if (i < 9) r.Fail("a scanned process of fewer than 9 values");
}

void ReadCounters(JsonReader& r, std::array<uint64_t, 7>& out) {
  r.BeginArray();
  size_t i = 0;
  for (; r.NextElement(); ++i) {
    if (i < out.size()) out[i] = r.ReadUint64();
    else r.SkipValue();
  }
  if (i < out.size()) r.Fail("a named process's counters: fewer than 7");
}

// [pid,start,[now...],[from...],...]
void ReadNamed(JsonReader& r, NamedScanRow& n) {
  r.BeginArray();
  int i = 0;
  for (; r.NextElement(); ++i) {
    switch (i) {
      case 0: n.pid = ReadU32(r); break;
      case 1: n.start = r.ReadUint64(); break;
      case 2: ReadCounters(r, n.now); break;
      case 3: ReadCounters(r, n.from); break;
      default: r.SkipValue();
    }
  }
  if (i < 4) r.Fail("a named process of fewer than 4 values");
}

}  // namespace

void ReadScanNamed(JsonReader& r, std::vector<NamedScanRow>& out) {
  out.clear();
  r.BeginArray();
  while (r.NextElement()) ReadNamed(r, out.emplace_back());
}

void ReadScanPids(JsonReader& r, std::vector<uint32_t>& out) {
  out.clear();
  r.BeginArray();
  while (r.NextElement()) out.push_back(ReadU32(r));
}

void ReadScanProcesses(JsonReader& r, std::vector<ScannedProcess>& out) {
  out.clear();
  r.BeginArray();
  while (r.NextElement()) ReadProcess(r, out.emplace_back());
}

}  // namespace pm
