// Hand-built RawSamples for the rates and summary tests: one sample at a
// given time, with rows added by small builders.
#pragma once

#include <cstdint>
#include <string>

#include "playback/rates.hh"
#include "playback/raw_sample.hh"

namespace pm::test {

inline constexpr int64_t kSec = 1000000000;

inline RawSample At(int64_t time_ns) {
  RawSample s;
  s.time_ns = time_ns;
  return s;
}

// Aggregate line plus one row per core, all present.
inline void SetCpu(RawSample& s, const CpuCounters& total,
                   std::initializer_list<CpuCounters> cores) {
  s.has_cpu = true;
  s.cpu_total_present = true;
  s.cpu_total = total;
  for (const CpuCounters& c : cores) s.cores.push_back({true, c});
}

inline void AddDisk(RawSample& s, std::string name, const DiskCounters& c) {
  s.has_disk = true;
  DiskSample d;
  d.name = std::move(name);
  d.present = true;
  d.counters = c;
  s.disks.push_back(d);
}

inline void AddNet(RawSample& s, std::string name, const NetCounters& c) {
  s.has_net = true;
  NetSample n;
  n.name = std::move(name);
  n.present = true;
  n.counters = c;
  s.nets.push_back(n);
}

// rx bytes/packets at [0]/[1], tx bytes/packets at [8]/[9].
inline NetCounters Net(uint64_t rx_bytes, uint64_t rx_pkts, uint64_t tx_bytes,
                       uint64_t tx_pkts) {
  NetCounters c{};
  c[0] = rx_bytes;
  c[1] = rx_pkts;
  c[8] = tx_bytes;
  c[9] = tx_pkts;
  return c;
}

inline std::string Fixed(double v, int precision) {
  std::string out;
  AppendFixed(out, v, precision);
  return out;
}

}  // namespace pm::test
