// The arithmetic every report shares: PerfMonger's (compat §4) time and
// difference rules, so that `%.2f` rounds to PerfMonger's digits, and the
// pieces the reports' JSON objects are made of.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "playback/reading/raw_sample.hh"
#include "playback/reports/report.hh"
#include "proto/text.hh"  // AppendFixed: every rate is printed with it

namespace pm {

// cur − prev as Go's int64 subtraction, except that a counter that went
// backwards was reset (a device re-attached, a 32-bit NIC counter that
// wrapped): the pair counts nothing for it, never a negative rate. One
// rule for every counter (pgr(5), "Counters"); PerfMonger's own recordings
// never go backwards, so its outputs are unchanged.
inline int64_t CounterDelta(uint64_t prev, uint64_t cur) {
  return cur < prev ? 0 : static_cast<int64_t>(cur - prev);
}

// Go's time.Duration(ns).Seconds(): whole seconds plus the remainder / 1e9,
// the interval every PerfMonger rate divides by.
double GoSeconds(int64_t ns);

// PerfMonger's elapsed_time: (float64(t) − float64(origin)) / 1e9, both
// timestamps rounded to double (≈256 ns steps today) before the
// subtraction, which is not always the exact difference's rounding.
double ElapsedSeconds(int64_t t_ns, int64_t origin_ns);

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
// Row `name` of member `member` over a pair (not present when either
// sample lacks the member or the row).
RowDelta NamedDelta(const Pair& p, size_t member, std::string_view name, size_t levels);

// What the reports share when they write JSON: v per second (0 over no
// time); a member `"key":v` with two decimals or as an integer, preceded by
// a comma unless it opens its object.
double PerSecond(double v, double seconds);
void AppendFixedMember(std::string& out, std::string_view key, double v, int digits = 2);
void AppendUintMember(std::string& out, std::string_view key, uint64_t v);

// A line of summary's text blocks: prefix, v with `precision` decimals
// (PerfMonger's Printf verbs), suffix, newline.
void SummaryLine(std::string& out, std::string_view prefix, double v, int precision,
                 std::string_view suffix);

}  // namespace pm
