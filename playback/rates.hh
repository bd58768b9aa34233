// Raw pair -> PerfMonger's play metrics (compat §4): pure functions, the
// exact formulas and the same arithmetic order as PerfMonger, so `%.2f`
// rounds to the same digits.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "playback/disk_filter.hh"
#include "playback/raw_sample.hh"
#include "playback/report.hh"
#include "proto/text.hh"  // AppendFixed: every rate is printed with it

namespace pm {

struct IntrRates {                   // interrupts per second, per CPU
  std::vector<double> core_dev_intr; // numbered rows
  std::vector<double> core_sys_intr; // named rows (NMI, LOC, ...)
};

struct PairRates {
  double time = 0;          // cur time, Unix seconds
  double elapsed_time = 0;  // cur time − the recording's first sample
  double interval = 0;      // cur − prev, seconds

  bool has_intr = false;
  IntrRates intr;
};

struct RateOptions {
  const DiskFilter* disk_only = nullptr;  // --disk-only: keep matching disks
};

// Rates over [prev, cur]. Requires cur.time_ns > prev.time_ns.
PairRates ComputeRates(const RawSample& prev, const RawSample& cur,
                       int64_t first_time_ns, const RateOptions& options = {});
// The same into `out`, whatever it held, reusing its vectors' memory: a
// reader computing a pair per line allocates nothing once warmed up.
void ComputeRates(const RawSample& prev, const RawSample& cur, int64_t first_time_ns,
                  const RateOptions& options, PairRates& out);

// JSON text in PerfMonger's key order and number formats:
//   AppendPlayJson: {"time":..,"elapsed_time":..,"cpu":..,"intr":..,"disk":..,"net":..,"mem":..}
// (no newline) and the parts (each appends one value, no key) for
// `summary --json`. A section is written only when its has_* flag is set.
void AppendPlayJson(std::string& out, const Pair& pair);
void AppendIntrJson(std::string& out, const IntrRates& intr);

// cur − prev as Go's int64 subtraction, except that a counter that went
// backwards was reset (a device re-attached, a 32-bit NIC counter that
// wrapped): the pair counts nothing for it, never a negative rate. One
// rule for every counter (pgr(5), "Counters").
inline int64_t CounterDelta(uint64_t prev, uint64_t cur) {
  return cur < prev ? 0 : static_cast<int64_t>(cur - prev);
}

// A row of named rows over a pair: its counters' differences (a reset
// counts 0), its levels' current values.
inline constexpr size_t kMaxRowFields = 32;
struct RowDelta {
  bool present = false;  // live in both samples (a process gone: false)
  std::array<double, kMaxRowFields> values{};
  double operator[](size_t field) const { return values[field]; }
};
// Row `row` of `cur` over the row of its name in `prev`; the last `levels`
// fields are levels.
RowDelta DeltaOf(const MemberRows& prev, const MemberRows& cur, size_t row, size_t levels);

// What the reports share when they write JSON: v per second (0 over no
// time); a member `"key":v` with two decimals or as an integer, preceded by
// a comma unless it opens its object.
double PerSecond(double v, double seconds);
void AppendFixedMember(std::string& out, std::string_view key, double v);
void AppendUintMember(std::string& out, std::string_view key, uint64_t v);

// Go's time.Duration(ns).Seconds(): whole seconds plus the remainder / 1e9,
// the interval every PerfMonger rate divides by.
double GoSeconds(int64_t ns);

// PerfMonger's elapsed_time: (float64(t) − float64(origin)) / 1e9, both
// timestamps rounded to double (≈256 ns steps today) before the
// subtraction, which is not always the exact difference's rounding.
double ElapsedSeconds(int64_t t_ns, int64_t origin_ns);

// An interrupt row of a device (a number) rather than of the system (NMI, LOC).
bool IsNumbered(std::string_view irq);

}  // namespace pm
