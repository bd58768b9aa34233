// `play --format openmetrics`: a recording as OpenMetrics text for
// `promtool tsdb create-blocks-from openmetrics` (Prometheus backfill).
// Raw cumulative counters, at the recorded instants (milliseconds), under
// node_exporter's names (openmetrics_catalog.hh), every series labelled
// with `instance` (the recording's host unless overridden), `job` and the
// labels given (play --job, --label), and the recording's --meta keys;
// the process table's perfmonger_proctable_* (openmetrics_proctable.hh);
// perfmonger_phase_info for marks and pauses (openmetrics_phases.hh);
// `# EOF` last.
//
// The format wants each metric family written in one piece, and within it
// each series in time order, but a recording comes sample by sample. One
// pass spools the samples into columns on disk (column_spool.hh); Write()
// then reads each series back. Memory stays flat on any length; the spool
// takes 8 bytes per sample and series in `spool_dir`. Standard input needs
// nothing more: it is read once.
#pragma once

#include "playback/reports/disk_filter.hh"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "playback/outputs/column_spool.hh"
#include "playback/outputs/openmetrics_catalog.hh"
#include "playback/outputs/openmetrics_phases.hh"
#include "playback/outputs/openmetrics_proctable.hh"
#include "playback/reading/raw_sample.hh"
#include "proto/stream.hh"

namespace pm {

struct OpenMetricsOptions {
  std::string instance;  // the `instance` label; "" leaves it out
  std::string job;       // the `job` label; "" leaves it out
  MetaList labels;       // more labels for every series, names LabelNameProblem() passed
  const DiskFilter* disk_only = nullptr;
  std::string spool_dir = "/tmp";
  size_t block_bytes = 1 << 20;
};

// Why `name` cannot be given as a label of every series ("" when it can):
// not a label name, Prometheus' reserved `__` prefix, `instance` or `job`
// (they have options of their own), or a label of the export's own series
// (the reports' own: cpu, mode, device, irq, pid, comm, cgroup, ...; phase,
// state).
std::string LabelNameProblem(std::string_view name);

// `instance`, `job`, the options' labels, then one label per --meta key,
// in recorded order: names made valid (SanitizedLabelName), kept apart
// from the export's own labels, `instance`, `job` and the labels given by a
// `meta_` prefix, and from each other by trailing '_'.
std::string CommonLabels(const OpenMetricsOptions& options, const MetaList& meta);

class OpenMetricsExport {
 public:
  OpenMetricsExport(const RecordingInfo& info, const OpenMetricsOptions& options);

  // Items in file order. A sample not later than the one kept before it
  // (to the millisecond) is dropped: a series' timestamps must increase.
  void OnSample(const RawSample& s);
  void OnEvent(const RecordingEvent& e);

  // After the last item: the whole exposition, then out.Flush().
  void Write(OutputStream& out);

  uint64_t samples_kept() const { return spool_.rows(); }
  uint64_t samples_dropped() const { return dropped_; }

 private:
  void WriteFamily(std::string& out, const MetricFamily& family,
                   const std::function<void()>& drain);

  std::string common_;
  MetricCatalog catalog_;
  ColumnSpool spool_;
  ProcTableMetrics procs_;
  PhaseSeries phases_;
  std::vector<uint64_t> row_;
  int64_t last_ms_ = 0;
  uint64_t dropped_ = 0;
};

// Nanoseconds to the nearest millisecond.
int64_t NearestMs(int64_t ns);

}  // namespace pm
