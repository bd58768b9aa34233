// What a recording's header says of its machine CPU time (cpu_report.hh):
// the finest source of row all, and its resolution.
#include <array>
#include <string>

#include "playback/cpu_report.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

constexpr size_t kCpu = PgrMemberIndex("cpu"), kFine = PgrMemberIndex("cpu_fine");
constexpr int64_t kStatResolutionNs = 10'000'000;  // USER_HZ = 100

// Whether `s` gives a row's CPU time (not only its run delay).
bool GivesTime(const SeriesSource& s, std::string_view rows) {
  if (s.member == kCpu) return s.Covers(kCpuFields[0], rows);
  if (s.member != kFine) return false;
  return s.Covers(kCpuFineFields[cpu_fine_field::kBusy], rows) ||
         s.Covers(kCpuFineFields[cpu_fine_field::kIdle], rows);
}

// The finest source of the rows' CPU time, or null (none named).
const SeriesSource* Finest(const RecordingInfo* info, std::string_view rows) {
  const SeriesSource* best = nullptr;
  if (info == nullptr) return best;
  for (const SeriesSource& s : info->sources)
    if (GivesTime(s, rows) && s.resolution_ns > 0 &&
        (best == nullptr || s.resolution_ns < best->resolution_ns))
      best = &s;
  return best;
}

// "cgroup2 cpu.stat", "/proc/schedstat", "cpuidle", "/proc/stat".
std::string ShortName(const std::string& file) {
  if (file.ends_with("/cpu.stat")) return "cgroup2 cpu.stat";
  if (file.find("cpuidle") != std::string::npos) return "cpuidle";
  return file;
}

// "4 ms", "1 ns", "250 µs".
std::string Duration(int64_t ns) {
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + " ms";
  if (ns % 1000 == 0) return std::to_string(ns / 1000) + " µs";
  return std::to_string(ns) + " ns";
}

std::string Named(const SeriesSource* s) {
  if (s == nullptr) return "/proc/stat, 10 ms";
  return ShortName(s->file) + ", " + Duration(s->resolution_ns);
}

}  // namespace

int64_t CpuResolutionNs(const RecordingInfo* info) {
  const SeriesSource* s = Finest(info, "all");
  return s == nullptr ? kStatResolutionNs : s->resolution_ns;
}

std::string CpuSourceText(const RecordingInfo* info) {
  std::string out = Named(Finest(info, "all"));
  const SeriesSource* cores = Finest(info, "cores");
  if (cores != Finest(info, "all")) out += "; cores: " + Named(cores);
  std::string absent;
  for (std::string_view finer : {"cgroup2 cpu.stat", "/proc/schedstat", "cpuidle"}) {
    bool named = false;
    if (info != nullptr)
      for (const SeriesSource& s : info->sources) named |= ShortName(s.file) == finer;
    if (!named) absent += std::string(absent.empty() ? "" : ", ") + "no " + std::string(finer);
  }
  if (!absent.empty()) out += " (" + absent + ")";
  return out;
}

}  // namespace pm
