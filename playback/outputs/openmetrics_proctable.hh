// The process table (record --record-procs) as OpenMetrics families, for
// play --format openmetrics: per process, labelled `pid` and `comm`,
//   perfmonger_proctable_cpu_seconds_total{mode="user"|"system"}
//   perfmonger_proctable_read_bytes_total, _written_bytes_total
//   perfmonger_proctable_resident_memory_bytes (gauge)
// Counters are each process's rows summed from the start of the recording
// (a process first seen gets a 0 point at the start of its first row's
// interval, so increase() over the recording is its whole use). Families of
// their own, not the --pid rows' perfmonger_process_*: a pid both given to
// --pid and in the table would otherwise be two series with one label set
// (docs/metric-names.md). A pid reused by a process of the same comm
// continues its series from 0, which Prometheus reads as a counter reset.
// Memory: the running sums of live processes (dropped when a line says
// they exited) and the label set of every series; points go through a
// SeriesSpool (series_spool.hh), 56 bytes each, twice.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "playback/reading/proc_table_event.hh"
#include "playback/reading/raw_sample.hh"
#include "playback/outputs/series_spool.hh"

namespace pm {

class ProcTableMetrics {
 public:
  explicit ProcTableMetrics(const std::string& spool_dir) : points_(spool_dir) {}

  // "procs" events in file order; others are ignored.
  void Event(const RecordingEvent& e);

  // The families (nothing without a procs line), appending to `out` and
  // calling `drain` whenever `out` has grown.
  void Write(std::string& out, const std::string& common_labels,
             const std::function<void()>& drain);

 private:
  struct Point {
    int64_t t_ms;
    uint32_t id;
    uint32_t io;  // 0: the row had no I/O (unreadable /proc/PID/io)
    uint64_t user_us, sys_us, read, write, rss_kb;
  };
  struct Family;
  void AddRow(const ProcTableRow& row, int64_t since_ms, int64_t t_ms);
  void Spool(Point p, int64_t t_ms);
  uint32_t SeriesOf(const ProcTableRow& row);
  void WriteSeries(std::string& out, const Family& f, const char* mode,
                   const std::string& common_labels, const std::function<void()>& drain);

  SeriesSpool<Point> points_;
  std::map<std::pair<uint32_t, uint64_t>, Point> live_;  // running sums, by pid, start
  std::vector<std::string> labels_;  // per series: pid="..",comm=".."
  std::vector<int64_t> last_ms_;     // per series: its last point's time
  const SeriesSpool<Point>::Sorted* sorted_ = nullptr;  // while writing
  std::unordered_map<std::string, uint32_t> ids_;        // labels -> series
};

}  // namespace pm
