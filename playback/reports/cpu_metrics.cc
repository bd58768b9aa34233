// The cpu collector in OpenMetrics (playback/reports/report.hh's MetricsSlot):
// node_exporter's CPU families from /proc/stat's ticks, and the finer
// counters of cpu_fine (pgr(5)) with all their digits.
#include <string>
#include <vector>

#include "playback/reports/cpu_report.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/columns/cpu.hh"

namespace pm {
namespace {

const size_t kCpu = MemberIndexOf("cpu"), kProc = MemberIndexOf("proc"),
                 kFine = MemberIndexOf("cpu_fine");

constexpr const char* kModes[8] = {"user", "nice", "system", "idle",
                                   "iowait", "irq", "softirq", "steal"};

void Families(MetricFamilies& out) {
  out.Counter("node_cpu_seconds", "seconds", "Seconds the CPUs spent in each mode.");
  out.Counter("node_cpu_guest_seconds", "seconds",
              "Seconds the CPUs spent in guests (VMs) for each mode.");
  out.Counter("node_context_switches", "", "Total number of context switches.");
  out.Counter("node_forks", "", "Total number of forks.");
  out.Counter("perfmonger_cpu_seconds", "seconds",
              "CPU time finer than node_cpu_seconds_total's ticks, per CPU and in all (cpu=\"all\"): "
              "busy, its user, nice and system parts, idle (pgr(5) cpu_fine).");
  out.Counter("perfmonger_cpu_run_delay_seconds", "seconds",
              "Time tasks waited runnable on the CPU (/proc/schedstat).");
}

// cpu_fine's fields that the header's sources give for the row, in order.
std::vector<size_t> FineFields(const RecordingInfo& info, bool all) {
  std::vector<size_t> out;
  for (size_t f = 0; f < kCpuFineFields.size(); ++f)
    for (const SeriesSource& s : info.sources)
      if (s.member == kFine && s.Covers(kCpuFineFields[f], all ? "all" : "cores")) {
        out.push_back(f);
        break;
      }
  return out;
}

// perfmonger_cpu_seconds_total{cpu,mode} and ..._run_delay_seconds_total{cpu}
// from cpu_fine's rows, in ns, with all their digits.
void FineSeries(MetricRow& row, const MemberRows& fine) {
  for (size_t r = 0; fine.has && r < fine.rows(); ++r) {
    if (!fine.live(r)) continue;
    const std::string cpu = r == 0 ? "all" : fine.names[r];
    const std::vector<size_t> fields = FineFields(row.info(), r == 0);
    uint32_t base = row.Block("fine:" + cpu, [&] {
      uint32_t first = MetricRow::kLeftOut;
      for (size_t f : fields) {
        std::string labels;
        AppendLabel(labels, "cpu", cpu);
        std::string_view mode = kCpuFineFields[f].substr(0, kCpuFineFields[f].size() - 3);
        if (f != cpu_fine_field::kRunDelay) {
          labels += ",";
          AppendLabel(labels, "mode", mode);
        }
        uint32_t id = row.Add(f == cpu_fine_field::kRunDelay ? 5 : 4, Scale::kPerBillion, labels);
        if (first == MetricRow::kLeftOut) first = id;
      }
      return first;
    });
    if (base == MetricRow::kLeftOut) continue;
    for (size_t k = 0; k < fields.size(); ++k) row.Put(base + static_cast<uint32_t>(k), fine.at(r, fields[k]));
  }
}

// Per core, its 8 modes then guest user and nice: the row's 10 fields in
// order (jiffies / USER_HZ = 100); user and nice include guest time, as
// the kernel counts it and node_exporter exports it.
void Series(MetricRow& row, const RawSample& s) {
  const MemberRows& cpu = s.members[kCpu];
  for (size_t c = 1; cpu.has && c < cpu.rows(); ++c) {
    if (!cpu.live(c)) continue;
    uint32_t base = row.Block(cpu.names[c], [&] {
      std::string label;
      AppendLabel(label, "cpu", cpu.names[c]);
      uint32_t first = 0;
      for (size_t m = 0; m < 8; ++m) {
        std::string labels = label + ",";
        AppendLabel(labels, "mode", kModes[m]);
        uint32_t id = row.Add(0, Scale::kPerHundred, labels);
        if (m == 0) first = id;
      }
      row.Add(1, Scale::kPerHundred, label + ",mode=\"user\"");
      row.Add(1, Scale::kPerHundred, label + ",mode=\"nice\"");
      return first;
    });
    row.Put(base, cpu.row(c));
  }
  if (s.members[kProc].has) {
    uint32_t base = row.Block("", [&] {
      uint32_t first = row.Add(2, Scale::kOne, "");
      row.Add(3, Scale::kOne, "");
      return first;
    });
    row.Put(base, s.members[kProc].row(0));
  }
  FineSeries(row, s.members[kFine]);
}

constexpr std::string_view kLabels[] = {"cpu", "mode"};

}  // namespace

extern const MetricsSlot kCpuMetrics;
constexpr MetricsSlot kCpuMetrics = {Families, kLabels, Series};

}  // namespace pm
