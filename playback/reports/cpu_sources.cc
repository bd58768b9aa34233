// What a recording's header says of its machine CPU time (cpu_report.hh):
// the source row all is rated from, and its resolution.
#include <array>
#include <string>

#include "playback/reports/cpu_report.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/cpu.hh"

namespace pm {
namespace {

const size_t kCpu = MemberIndexOf("cpu"), kFine = MemberIndexOf("cpu_fine");
constexpr int64_t kStatResolutionNs = 10'000'000;  // USER_HZ = 100

// The first source named for `field` of member `member` in the rows.
const SeriesSource* Giving(const RecordingInfo& info, size_t member, std::string_view field,
                           std::string_view rows) {
  for (const SeriesSource& s : info.sources)
    if (s.member == member && s.Covers(field, rows)) return &s;
  return nullptr;
}

// The source the rows' CPU time is rated from, in cpu_usage.cc's order:
// busy_ns, else idle_ns, else /proc/stat; null when none is named (an
// older recording: /proc/stat).
const SeriesSource* Used(const RecordingInfo* info, std::string_view rows) {
  if (info == nullptr) return nullptr;
  for (std::string_view f : {kCpuFineFields[cpu_fine_field::kBusy],
                             kCpuFineFields[cpu_fine_field::kIdle]})
    if (const SeriesSource* s = Giving(*info, kFine, f, rows)) return s;
  return Giving(*info, kCpu, kCpuFields[0], rows);
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
  const SeriesSource* s = Used(info, "all");
  return s == nullptr || s->resolution_ns <= 0 ? kStatResolutionNs : s->resolution_ns;
}

std::string CpuSourceText(const RecordingInfo* info) {
  std::string out = Named(Used(info, "all"));
  const SeriesSource* cores = Used(info, "cores");
  if (cores != Used(info, "all")) out += "; cores: " + Named(cores);
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
