// RawSample members by key, for tests: every member is a table of named
// rows (playback/reading/raw_sample.hh), found by its descriptor's key.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "playback/reading/raw_sample.hh"
#include "proto/pgr_collector_spec.hh"

namespace pm::test {

// user nice system idle iowait irq softirq steal guest guest_nice
using CpuCounters = std::array<uint64_t, 10>;
// reads read_merges read_sectors read_ms writes write_merges write_sectors
// write_ms in_flight io_ms weighted_io_ms, then discards discard_merges
// discard_sectors discard_ms flushes flush_ms (a reader's rows are always
// kDiskFields wide, a field never recorded reading 0; test_sar_derived.cc
// checks the width, so that this header, which most playback tests
// include, needs not the disk's columns)
using DiskCounters = std::array<uint64_t, 17>;
// rx: bytes packets errs drop fifo frame compressed multicast, then tx
using NetCounters = std::array<uint64_t, 16>;
using Values = std::vector<uint64_t>;

inline MemberRows& Member(RawSample& s, std::string_view key) {
  return s.members[MemberIndexOf(key)];
}
inline const MemberRows& Member(const RawSample& s, std::string_view key) {
  return s.members[MemberIndexOf(key)];
}

// A row appended to member `key` (carried from now on), its values given.
template <class V>
void AddRow(RawSample& s, std::string_view key, std::string name, const V& values,
            bool present = true) {
  MemberRows& m = Member(s, key);
  m.has = true;
  m.width = std::size(values);
  m.names.push_back(std::move(name));
  m.present.push_back(present ? 1 : 0);
  m.values.insert(m.values.end(), std::begin(values), std::end(values));
}

// Row `name` of member `key` (its values), or {} when there is none.
inline Values Row(const RawSample& s, std::string_view key, std::string_view name) {
  const MemberRows& m = Member(s, key);
  size_t i = m.Find(name, 0);
  if (i == MemberRows::npos) return {};
  return {m.row(i).begin(), m.row(i).end()};
}
inline bool Live(const RawSample& s, std::string_view key, std::string_view name) {
  const MemberRows& m = Member(s, key);
  size_t i = m.Find(name, 0);
  return i != MemberRows::npos && m.live(i);
}

// The aggregate line ("all") and one row per core, all present.
inline void SetCpu(RawSample& s, const CpuCounters& total,
                   std::initializer_list<CpuCounters> cores) {
  Member(s, "cpu") = {};
  AddRow(s, "cpu", "all", total);
  for (const CpuCounters& c : cores) AddRow(s, "cpu", std::to_string(Member(s, "cpu").rows() - 1), c);
}

inline void AddDisk(RawSample& s, std::string name, const DiskCounters& c) {
  AddRow(s, "disk", std::move(name), c);
}

inline void AddNet(RawSample& s, std::string name, const NetCounters& c) {
  AddRow(s, "net", std::move(name), c);
}

}  // namespace pm::test
