// The devices of a pair (disks, network interfaces) as PerfMonger counts
// them: the rows of the earlier sample that are live in both, in the
// earlier sample's order (its totals are summed in that order, which the
// floating-point sums keep), each with its row in the later sample; and
// the ones play lists: sorted by name bytewise and stably, without a
// device named "total" (PerfMonger keys devices by name in one map with
// "total": such a device counts towards the total but is not listed).
//
// On the stack for a machine's handful (rows keep their order from line to
// line, so insertion sort is cheap), on the heap beyond.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playback/reports/play_text.hh"
#include "playback/reading/raw_sample.hh"
#include "playback/reports/report.hh"

namespace pm {

struct DeviceRow {
  uint32_t prev, cur;  // the device's row in each sample
};

class DeviceRows {
 public:
  // The rows kept by keep(name) too (--disk-only).
  template <class Keep>
  DeviceRows(const MemberRows& prev, const MemberRows& cur, Keep keep) {
    DeviceRow* rows = Room(prev.rows(), small_, large_);
    size_t n = 0;
    for (size_t i = 0; i < prev.rows(); ++i) {
      size_t j = cur.Find(prev.names[i], i);
      if (!prev.live(i) || j == MemberRows::npos || !cur.live(j) || !keep(prev.names[i]))
        continue;
      rows[n++] = {static_cast<uint32_t>(i), static_cast<uint32_t>(j)};
    }
    all_ = {rows, n};
    DeviceRow* listed = Room(n, small_listed_, large_listed_);
    size_t k = 0;
    for (const DeviceRow& r : all_)
      if (std::string_view(prev.names[r.prev]) != "total") listed[k++] = r;
    listed_ = {listed, k};
    auto by_name = [&prev](const DeviceRow& a, const DeviceRow& b) {
      return prev.names[a.prev] < prev.names[b.prev];
    };
    if (k > small_.size()) {
      std::stable_sort(listed_.begin(), listed_.end(), by_name);
      return;
    }
    for (size_t i = 1; i < k; ++i)  // insertion sort: stable
      for (size_t j = i; j > 0 && by_name(listed[j], listed[j - 1]); --j)
        std::swap(listed[j], listed[j - 1]);
  }
  DeviceRows(const DeviceRows&) = delete;
  DeviceRows& operator=(const DeviceRows&) = delete;

  std::span<const DeviceRow> all() const { return all_; }        // the earlier sample's order
  std::span<const DeviceRow> listed() const { return listed_; }  // sorted, no "total"

 private:
  static DeviceRow* Room(size_t n, std::array<DeviceRow, 32>& small,
                         std::vector<DeviceRow>& large) {
    if (n <= small.size()) return small.data();
    large.resize(n);
    return large.data();
  }

  std::array<DeviceRow, 32> small_, small_listed_;
  std::vector<DeviceRow> large_, large_listed_;
  std::span<DeviceRow> all_, listed_;
};

// A device member over a pair, with its rates: `Entry` computes a
// device's from its rows in the two samples and the interval.
template <class Rates, Rates (*Entry)(std::span<const uint64_t>, std::span<const uint64_t>, double)>
struct Devices {
  const MemberRows &prev, &cur;
  double interval;
  DeviceRows rows;
  template <class Keep>
  Devices(const Pair& p, size_t member, Keep keep)
      : prev(p.prev.members[member]), cur(p.cur.members[member]), interval(p.interval),
        rows(prev, cur, keep) {}
  Rates Of(const DeviceRow& r) const { return Entry(prev.row(r.prev), cur.row(r.cur), interval); }
  const std::string& Name(const DeviceRow& r) const { return prev.names[r.prev]; }
};

// The listed device named `name`, or null.
template <class D>
const DeviceRow* FindListed(const D& devices, std::string_view name) {
  for (const DeviceRow& r : devices.rows.listed())
    if (devices.Name(r) == name) return &r;
  return nullptr;
}

// `,"key":{"devices":[..],"<name>":{..},...,"total":{..}}` (play's
// object), each entry written by put(p, rates) in at most kEntryMax bytes.
template <size_t kEntryMax, class D, class Rates, class Put>
void AppendDeviceMember(std::string& out, std::string_view key, const D& devices,
                        const Rates& total, Put put) {
  std::span<const DeviceRow> listed = devices.rows.listed();
  out.append(",\"").append(key).append("\":");
  AppendDevices<kEntryMax>(
      out, listed.size(), [&](size_t i) -> std::string_view { return devices.Name(listed[i]); },
      [&](char* q, size_t i) { return put(q, devices.Of(listed[i])); },
      [&](char* q) { return put(q, total); });
}

}  // namespace pm
