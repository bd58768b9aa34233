#include "playback/outputs/openmetrics_proctable.hh"

#include <climits>
#include <iterator>

#include "playback/outputs/export_openmetrics.hh"
#include "playback/outputs/openmetrics_text.hh"

namespace pm {
struct ProcTableMetrics::Family {
  const char* name;
  bool counter, needs_io;
  Scale scale;
  uint64_t ProcTableMetrics::Point::*value;
  const char* help;
};

namespace {

using P = ProcTableMetrics;

}  // namespace

void ProcTableMetrics::Event(const RecordingEvent& e) {
  if (e.kind != "procs" || e.procs == nullptr) return;
  const int64_t t_ms = NearestMs(e.time_ns);
  const int64_t since_ms = NearestMs(e.time_ns - (e.mono_ns - e.procs->since_mono_ns));
  for (const ProcTableRow& row : e.procs->rows) AddRow(row, since_ms, t_ms);
  for (uint32_t pid : e.procs->exited)
    for (auto it = live_.lower_bound({pid, 0}); it != live_.end() && it->first.first == pid;)
      it = live_.erase(it);
}

uint32_t ProcTableMetrics::SeriesOf(const ProcTableRow& row) {
  std::string labels;
  AppendLabel(labels, "pid", std::to_string(row.pid));
  labels.push_back(',');
  AppendLabel(labels, "comm", row.comm);
  auto [it, added] = ids_.try_emplace(labels, static_cast<uint32_t>(labels_.size()));
  if (added) {
    labels_.push_back(std::move(labels));
    last_ms_.push_back(INT64_MIN);
  }
  return it->second;
}

// A point not later than its series' last (to the millisecond) is left
// out: timestamps within a series must increase.
void ProcTableMetrics::Spool(Point p, int64_t t_ms) {
  if (t_ms <= last_ms_[p.id]) return;
  p.t_ms = last_ms_[p.id] = t_ms;
  points_.Add(p);
}

// A point per row at the end of its interval, after a 0 point at its start
// for a process first seen.
void ProcTableMetrics::AddRow(const ProcTableRow& row, int64_t since_ms, int64_t t_ms) {
  auto [it, first] = live_.try_emplace({row.pid, row.start});
  Point& sum = it->second;
  sum.id = SeriesOf(row);
  sum.io = row.read_bytes && row.write_bytes;
  sum.rss_kb = row.rss_kb;
  if (first) Spool(sum, since_ms);
  sum.user_us += row.utime_us, sum.sys_us += row.stime_us;
  if (sum.io) sum.read += *row.read_bytes, sum.write += *row.write_bytes;
  Spool(sum, t_ms);
}

void ProcTableMetrics::WriteSeries(std::string& out, const Family& f, const char* mode,
                                   const std::string& common_labels,
                                   const std::function<void()>& drain) {
  for (uint32_t id = 0; id < labels_.size(); ++id) {
    std::string prefix = std::string(f.name) + (f.counter ? "_total{" : "{") + labels_[id];
    if (mode != nullptr) prefix.append(",mode=\"").append(mode).append("\"");
    if (!common_labels.empty()) prefix += "," + common_labels;
    prefix += "} ";
    for (const Point& p : sorted_->Of(id)) {
      if (f.needs_io && !p.io) continue;
      out.append(prefix);
      AppendScaled(out, p.*f.value, f.scale);
      out.push_back(' ');
      AppendTimestampMs(out, p.t_ms);
      out.push_back('\n');
      drain();
    }
  }
}

void ProcTableMetrics::Write(std::string& out, const std::string& common_labels,
                             const std::function<void()>& drain) {
  static const Family kFamilies[] = {
      {"perfmonger_proctable_cpu_seconds", true, false, Scale::kPerMillion, &P::Point::user_us,
       "CPU time of a process of the process table (record --record-procs), by mode."},
      {"perfmonger_proctable_cpu_seconds", true, false, Scale::kPerMillion, &P::Point::sys_us, ""},
      {"perfmonger_proctable_read_bytes", true, true, Scale::kOne, &P::Point::read,
       "Bytes a process of the process table read from storage (/proc/PID/io read_bytes)."},
      {"perfmonger_proctable_written_bytes", true, true, Scale::kOne, &P::Point::write,
       "Bytes a process of the process table wrote to storage (/proc/PID/io write_bytes)."},
      {"perfmonger_proctable_resident_memory_bytes", false, false, Scale::kTimes1024,
       &P::Point::rss_kb, "Resident memory of a process of the process table."},
  };
  if (labels_.empty()) return;
  const SeriesSpool<Point>::Sorted sorted = points_.Sort();
  sorted_ = &sorted;
  for (size_t i = 0; i < std::size(kFamilies); ++i) {
    const Family& f = kFamilies[i];
    if (i != 1) {
      out.append("# TYPE ").append(f.name).append(f.counter ? " counter\n" : " gauge\n");
      out.append("# UNIT ").append(f.name).append(i < 2 ? " seconds\n" : " bytes\n");
      out.append("# HELP ").append(f.name).append(" ").append(f.help).append("\n");
    }
    WriteSeries(out, f, i == 0 ? "user" : i == 1 ? "system" : nullptr, common_labels, drain);
  }
  sorted_ = nullptr;
}

}  // namespace pm
