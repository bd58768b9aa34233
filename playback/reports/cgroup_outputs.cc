// The cgroups report's exports: OpenMetrics under cAdvisor's names (a
// `cgroup` label for the path as recorded) where the quantity is
// cAdvisor's, perfmonger_cgroup_* where it is not (docs/metric-names.md),
// and plot's cgroup.dat with its charts.
#include <span>
#include <string>

#include "playback/reports/cgroup_report.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/rates.hh"
#include "proto/columns/cgroup.hh"

namespace pm {
namespace {

using namespace cgroup_field;
using Field = size_t;

// The families, in kCgroupFields order: a group's block is one series per
// field. cAdvisor's container_memory_rss and _cache are bytes without
// saying so in their names: no UNIT line for them (OpenMetrics wants the
// unit as the name's suffix).
constexpr FieldFamily kFamilies[] = {
    {"container_cpu_usage_seconds", true, "seconds", "Cumulative cpu time consumed (cpu.stat usage_usec).", Scale::kPerMillion, ""},
    {"container_cpu_user_seconds", true, "seconds", "Cumulative user cpu time consumed (user_usec).", Scale::kPerMillion, ""},
    {"container_cpu_system_seconds", true, "seconds", "Cumulative system cpu time consumed (system_usec).", Scale::kPerMillion, ""},
    {"container_cpu_cfs_throttled_periods", true, "", "Number of throttled period intervals (nr_throttled).", Scale::kOne, ""},
    {"container_cpu_cfs_throttled_seconds", true, "seconds", "Total time duration the container has been throttled (throttled_usec).", Scale::kPerMillion, ""},
    {"perfmonger_cgroup_read_bytes", true, "bytes", "Bytes read by the group, io.stat summed over all its devices.", Scale::kOne, ""},
    {"perfmonger_cgroup_written_bytes", true, "bytes", "Bytes written by the group, io.stat summed over all its devices.", Scale::kOne, ""},
    {"perfmonger_cgroup_reads", true, "", "Reads completed for the group, io.stat summed over all its devices.", Scale::kOne, ""},
    {"perfmonger_cgroup_writes", true, "", "Writes completed for the group, io.stat summed over all its devices.", Scale::kOne, ""},
    {"container_memory_failures", true, "", "Cumulative count of memory allocation failures (memory.stat pgmajfault).", Scale::kOne, ",failure_type=\"pgmajfault\",scope=\"hierarchy\""},
    {"container_pressure_cpu_waiting_seconds", true, "seconds", "Total time duration tasks in the container have waited due to CPU congestion.", Scale::kPerMillion, ""},
    {"container_pressure_cpu_stalled_seconds", true, "seconds", "Total time duration no tasks in the container could make progress due to CPU congestion.", Scale::kPerMillion, ""},
    {"container_pressure_io_waiting_seconds", true, "seconds", "Total time duration tasks in the container have waited due to IO congestion.", Scale::kPerMillion, ""},
    {"container_pressure_io_stalled_seconds", true, "seconds", "Total time duration no tasks in the container could make progress due to IO congestion.", Scale::kPerMillion, ""},
    {"container_pressure_memory_waiting_seconds", true, "seconds", "Total time duration tasks in the container have waited due to memory congestion.", Scale::kPerMillion, ""},
    {"container_pressure_memory_stalled_seconds", true, "seconds", "Total time duration no tasks in the container could make progress due to memory congestion.", Scale::kPerMillion, ""},
    {"container_memory_usage_bytes", false, "bytes", "Current memory usage in bytes, including all memory regardless of when it was accessed (memory.current).", Scale::kOne, ""},
    {"container_memory_rss", false, "", "Size of RSS in bytes (memory.stat anon).", Scale::kOne, ""},
    {"container_memory_cache", false, "", "Number of bytes of page cache memory (memory.stat file).", Scale::kOne, ""},
};
static_assert(std::size(kFamilies) == kCgroupFields.size());
// Then cgroup_io's, per group and disk, in kCgroupIoFields order.
constexpr FieldFamily kIoFamilies[] = {
    {"container_fs_reads_bytes", true, "bytes", "Cumulative count of bytes read.", Scale::kOne, ""},
    {"container_fs_writes_bytes", true, "bytes", "Cumulative count of bytes written.", Scale::kOne, ""},
    {"container_fs_reads", true, "", "Cumulative count of reads completed.", Scale::kOne, ""},
    {"container_fs_writes", true, "", "Cumulative count of writes completed.", Scale::kOne, ""},
};
static_assert(std::size(kIoFamilies) == kCgroupIoFields.size());

void Families(MetricFamilies& out) {
  out.Declare(kFamilies);
  out.Declare(kIoFamilies);
}

void Series(MetricRow& row, const RawSample& s) {
  const MemberRows &groups = s.members[kCgroupMember], &io = s.members[kCgroupIoMember];
  for (size_t i = 0; groups.has && i < groups.rows(); ++i) {
    if (!groups.live(i)) continue;
    uint32_t base = row.Block(groups.names[i], [&] {
      std::string labels;
      AppendLabel(labels, "cgroup", groups.names[i]);
      return row.Add(kFamilies, 0, labels);
    });
    row.Put(base, groups.row(i));
  }
  for (size_t k = 0; io.has && k < io.rows(); ++k) {
    if (!io.live(k)) continue;
    const std::string& name = io.names[k];
    uint32_t base = row.Block("io\n" + name, [&] {  // apart from the groups' keys
      size_t colon = name.rfind(':');
      std::string labels;
      AppendLabel(labels, "cgroup", std::string_view(name).substr(0, colon));
      labels.push_back(',');
      AppendLabel(labels, "device", std::string_view(name).substr(colon + 1));
      return row.Add(kIoFamilies, std::size(kFamilies), labels);
    });
    row.Put(base, io.row(k));
  }
}

constexpr std::string_view kLabels[] = {"cgroup", "device", "failure_type", "scope"};
}  // namespace

constexpr MetricsSlot kCgroupMetrics = {Families, kLabels, Series};

namespace {

constexpr PlotFileSpec kFiles[] = {
    {"cgroup.dat",
     "# elapsed_time\tcores\t%usr\t%sys\t%throttled\tread_kB/s\twrite_kB/s\tr_iops\tw_iops\n"}};

void PlotPair(PlotLines& out, const Pair& p) {
  if (!p.Both(kCgroupMember)) return;
  const MemberRows &prev = p.prev.members[kCgroupMember], &cur = p.cur.members[kCgroupMember];
  const double s = p.interval;
  for (size_t i = 0; i < cur.rows(); ++i) {
    PlotBlock& block = out.Block(0, i, cur.names[i], "# cgroup: " + cur.names[i]);
    const RowDelta v = DeltaOf(prev, cur, i, kCgroupLevels);
    if (!v.present) continue;
    auto pct = [&](Field f) { return PerSecond(v[f] / 1e6, s) * 100.0; };
    std::string& line = out.Line(block);
    for (double x : {PerSecond(v[kUsage] / 1e6, s), pct(kUser), pct(kSystem), pct(kThrottled),
                     PerSecond(v[kRbytes] / 1024.0, s), PerSecond(v[kWbytes] / 1024.0, s),
                     PerSecond(v[kRios], s), PerSecond(v[kWios], s)})
      PlotLines::Col(line, x);
    line.push_back('\n');
  }
}

constexpr ChartLine kCpuLines[] = {{"", "$2", false}};
constexpr ChartLine kIoLines[] = {{"read", "$6", false, Direction::kRead},
                                  {"write", "$7", true, Direction::kWrite}};
constexpr ChartSpec kCharts[] = {
    {.name = "cgroup-cpu", .title = "Cgroup CPU", .ylabel = "cores used", .lines = kCpuLines},
    {.name = "cgroup-io", .title = "Cgroup I/O", .ylabel = "transfer", .lines = kIoLines,
     .directional = true, .bytes_per_unit = 1024},
};
}  // namespace

constexpr PlotSlot kCgroupPlot = {kFiles, PlotPair, kCharts};

namespace {

// live: a group per cgroup, its CPU as a percent of one CPU and its
// memory.current.
constexpr LiveColumn kLiveColumns[] = {{"cpu", 4, LiveUnit::kPercent},
                                       {"mem", 5, LiveUnit::kBytes}};

void LiveParts(const RawSample& s, std::vector<std::string>& out) {
  const MemberRows& m = s.members[kCgroupMember];
  out.assign(m.names.begin(), m.names.end());
}

bool LiveValues(const Pair& p, std::string_view part, std::span<double> out) {
  const RowDelta v = NamedDelta(p, kCgroupMember, part, kCgroupLevels);
  if (!v.present) return false;
  out[0] = PerSecond(v[kUsage] / 1e6, p.interval) * 100.0;
  out[1] = v[kMemCurrent];
  return true;
}

}  // namespace

constexpr LiveSlot kCgroupLive = {"cgroups", kLiveColumns, LiveParts, LiveValues};


}  // namespace pm
