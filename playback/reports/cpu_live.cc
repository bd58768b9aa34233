// The cpu collector in live's table (playback/reports/report.hh's LiveSlot), as
// dstat's total-cpu-usage: percent of all CPUs (100: every one busy), or of
// one core (--columns cpu:N). usr counts nice and guest time (as /proc/stat's
// user did before the guest split), sys the interrupts: the five add up
// to 100.
#include <algorithm>
#include <charconv>
#include <cmath>

#include "playback/reports/cpu_report.hh"
#include "proto/pgr_collector_spec.hh"

namespace pm {
namespace {

const size_t kCpu = MemberIndexOf("cpu");

constexpr LiveColumn kColumns[] = {{"usr", 3, LiveUnit::kPercent},
                                   {"sys", 3, LiveUnit::kPercent},
                                   {"wai", 3, LiveUnit::kPercent},
                                   {"stl", 3, LiveUnit::kPercent},
                                   {"idl", 3, LiveUnit::kPercent}};

// "" the machine; "N" core N.
bool Values(const Pair& p, std::string_view part, std::span<double> out) {
  if (!p.Both(kCpu)) return false;
  CpuUsage u;
  if (part.empty()) {
    u = MeanUsage(p);
  } else {
    size_t core = 0;
    auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), core);
    if (ec != std::errc() || end != part.data() + part.size() || !HasCore(p, core)) return false;
    u = CoreUsage(p, core);
  }
  if (IsNull(u, p)) {  // nothing measured: no value this interval
    std::fill(out.begin(), out.end(), std::nan(""));
    return true;
  }
  out[0] = u.usr + u.nice + u.guest + u.guestnice;
  out[1] = u.sys + u.hardirq + u.softirq;
  out[2] = u.iowait;
  out[3] = u.steal;
  out[4] = u.idle;
  return true;
}

}  // namespace

extern const LiveSlot kCpuLive;
constexpr LiveSlot kCpuLive = {"cpu", kColumns, nullptr, Values};

}  // namespace pm
