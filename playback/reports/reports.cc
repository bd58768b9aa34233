// The list of the reports' addresses, in kCollectors order (as MPD's
// DecoderList.cxx lists its plugins): the one place that joins the
// readers' reports to the descriptors. Adding a collector adds its line.
#include "playback/reports/reports.hh"

#include <array>
#include <iterator>
#include <string_view>

#include "proto/pgr_collectors.hh"

namespace pm {

// Defined in their collectors' report files.
extern const Report kCpuReport, kIntrReport, kDiskReport, kNetReport, kMemReport,
    kPressureReport, kLoadReport, kVmstatReport, kNetstatReport, kSockstatReport,
    kProcessReport, kCgroupReport;

namespace {

struct Listed {
  std::string_view name;  // its descriptor's
  const Report& report;   // never null
};

constexpr Listed kReports[] = {
    {"cpu", kCpuReport},
    {"intr", kIntrReport},
    {"disk", kDiskReport},
    {"net", kNetReport},
    {"mem", kMemReport},
    {"pressure", kPressureReport},
    {"load", kLoadReport},
    {"vmstat", kVmstatReport},
    {"netstat", kNetstatReport},
    {"sockstat", kSockstatReport},
    {"procs", kProcessReport},
    {"cgroups", kCgroupReport},
};

static_assert(std::size(kReports) == kCollectors.size(), "one report per collector");

static_assert(InCollectorOrder(kReports), "reports in kCollectors order");

constexpr std::array<ReportEntry, kCollectors.size()> kEntries = [] {
  std::array<ReportEntry, kCollectors.size()> entries{};
  size_t member = 0;
  for (size_t i = 0; i < kCollectors.size(); ++i) {
    entries[i] = {&kReports[i].report, member, kCollectors[i].members.size()};
    member += kCollectors[i].members.size();
  }
  return entries;
}();

}  // namespace

std::span<const ReportEntry> Reports() { return kEntries; }

}  // namespace pm
