#include "playback/statistics/use_rules.hh"

#include <algorithm>
#include <cmath>

#include "playback/statistics/use_span.hh"

namespace pm {
namespace {

using enum UseThreshold;

constexpr UseRule kRules[] = {
    {"cpu", "all", "busy", "CPU", 'U', "busy", kBusy, false, true},
    {"load", "", "runnable", "CPU", 'S', "run queue beyond the CPUs", kRunQueue},
    {"pressure", "cpu", "some", "CPU", 'S', "PSI cpu some", kPsi},
    {"cpu", "busiest_core", "busy", "CPU busiest core", 'U', "busy", kBusy},
    {"mem", "", "in_use", "memory", 'U', "in use", kNone},
    {"pressure", "memory", "some", "memory", 'S', "PSI memory some", kPsi},
    {"vmstat", "", "pswpinps", "memory", 'S', "swapped in", kAny},
    {"vmstat", "", "pswpoutps", "memory", 'S', "swapped out", kAny},
    {"vmstat", "", "pgscandps", "memory", 'S', "direct reclaim", kAny},
    {"vmstat", "", "oom_kills", "memory", 'E', "OOM kills", kNone, true},
    {"pressure", "io", "some", "I/O (all disks)", 'S', "PSI io some", kPsi},
    {"disk", "*", "util", "disk ", 'U', "busy", kBusy},
    {"disk", "*", "qlen", "disk ", 'S', "aqu-sz", kQueue},
    {"disk", "*", "rlatency", "disk ", 'S', "r_await", kNone},
    {"disk", "*", "wlatency", "disk ", 'S', "w_await", kNone},
    {"net", "*", "rxkbyteps", "net ", 'U', "received", kNone},
    {"net", "*", "txkbyteps", "net ", 'U', "sent", kNone},
    {"net", "*", "dropps", "net ", 'S', "drops", kAny, true},
    {"net", "*", "errps", "net ", 'E', "errors", kNone, true},
    {"netstat", "tcp", "listen_dropps", "TCP", 'S', "listen drops", kAny, true},
    {"netstat", "tcp", "retransps", "TCP", 'S', "retransmitted", kAny, true},
    {"netstat", "tcp", "estresps", "TCP", 'E', "established resets", kNone, true},
    {"netstat", "tcp", "orstsps", "TCP", 'E', "resets sent", kNone, true},
    {"cgroups", "*", "cpu", "cgroup ", 'U', "CPU (of one core)", kNone},
    {"cgroups", "*", "throttled", "cgroup ", 'S', "throttled", kAny},
    {"cgroups", "*", "pressure_cpu_some", "cgroup ", 'S', "PSI cpu some", kPsi},
    {"cgroups", "*", "pressure_memory_some", "cgroup ", 'S', "PSI memory some", kPsi},
    {"cgroups", "*", "pressure_io_some", "cgroup ", 'S', "PSI io some", kPsi},
};

struct Missing {
  std::string_view resource;  // the resource's name, or a prefix ending in ' '
  std::string_view collector;
  std::string_view note;
};
constexpr Missing kMissing[] = {
    {"CPU", "load", "S: --record-load for the run queue"},
    {"CPU", "pressure", "S: --record-pressure for PSI cpu"},
    {"memory", "vmstat", "S: --record-vmstat for swapping and direct reclaim; E: for OOM kills"},
    {"memory", "pressure", "S: --record-pressure for PSI memory"},
    {"disk ", "pressure", "S: --record-pressure for PSI io"},
    {"net ", "netstat", "S: --record-netstat for TCP listen drops and retransmissions"},
};

}  // namespace

SeriesName SplitSeries(std::string_view name) {
  const size_t first = name.find('.'), last = name.rfind('.');
  if (first == std::string_view::npos) return {name, {}, {}};
  if (first == last) return {name.substr(0, first), {}, name.substr(last + 1)};
  return {name.substr(0, first), name.substr(first + 1, last - first - 1), name.substr(last + 1)};
}

const UseRule* FindUseRule(const SeriesName& n) {
  for (const UseRule& r : kRules) {
    if (r.a != n.a || r.field != n.field) continue;
    if (r.b == "*" ? (!n.b.empty() && n.b != "total") : r.b == n.b) return &r;
  }
  return nullptr;
}

size_t RuleRank(const UseRule& rule) { return static_cast<size_t>(&rule - kRules); }

std::string ResourceName(const UseRule& rule, const SeriesName& n) {
  std::string name(rule.resource);
  if (rule.b == "*") name.append(n.b);
  return name;
}

double Threshold(const UseRule& rule, const UseThresholds& t) {
  switch (rule.thr) {
    case kBusy: return t.busy - 1e-9;  // "at or over": 95.00 counts
    case kPsi: return t.psi;
    case kQueue: return t.queue;
    case kAny:
    case kRunQueue: return 0;
    case kNone: break;
  }
  return std::nan("");
}

bool IsAwait(std::string_view label) { return label == "r_await" || label == "w_await"; }

std::vector<std::string> MissingFor(std::string_view resource,
                                    const std::vector<std::string>& seen) {
  std::vector<std::string> out;
  for (const Missing& m : kMissing) {
    const bool prefix = m.resource.ends_with(' ');
    if (prefix ? !resource.starts_with(m.resource) : resource != m.resource) continue;
    if (std::find(seen.begin(), seen.end(), m.collector) == seen.end()) out.emplace_back(m.note);
  }
  return out;
}

}  // namespace pm
