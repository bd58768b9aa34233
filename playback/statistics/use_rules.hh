// summary --use's rules (playback/statistics/use_span.hh): which `summary --stats`
// series (playback/reports/stat_row.hh) is which resource's U, S or E, against
// which threshold; and which record flag a resource's missing rows need.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pm {

struct UseThresholds;

// "a.b.field" (b may hold dots: a cgroup's path), or "a.field".
struct SeriesName {
  std::string_view a, b, field;
};
SeriesName SplitSeries(std::string_view name);

enum class UseThreshold : unsigned char {
  kNone,      // shown, never saturates
  kBusy,      // at or over UseThresholds::busy
  kPsi,       // over UseThresholds::psi
  kQueue,     // over UseThresholds::queue
  kAny,       // over 0 (drops, swapping, throttling)
  kRunQueue,  // tasks runnable beyond the CPU count, over 0
};

struct UseRule {
  std::string_view a, b, field;  // b "*": any device, cgroup (not "total")
  std::string_view resource;     // with b "*": a prefix to b ("disk ")
  char letter;                   // U, S, E
  std::string_view label;
  UseThreshold thr;
  bool events = false;           // counted over the span
  bool machine = false;          // in % of one core, all cores summed: / CPU count
};

const UseRule* FindUseRule(const SeriesName& n);
// Its position in the table (the order of resources in the output).
size_t RuleRank(const UseRule& rule);
std::string ResourceName(const UseRule& rule, const SeriesName& n);
// The value above which the rule's signal saturates (NaN: never).
double Threshold(const UseRule& rule, const UseThresholds& t);
bool IsAwait(std::string_view label);
// What the resource lacks, given the series' first parts the span had.
std::vector<std::string> MissingFor(std::string_view resource,
                                    const std::vector<std::string>& seen);

}  // namespace pm
