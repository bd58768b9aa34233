#include "playback/outputs/export_openmetrics.hh"

#include <algorithm>
#include <array>
#include <set>

#include "playback/outputs/openmetrics_text.hh"
#include "playback/reports/report.hh"
#include "playback/reports/reports.hh"

namespace pm {

int64_t NearestMs(int64_t ns) {
  int64_t q = ns / 1'000'000, r = ns % 1'000'000;
  if (r < 0) {
    --q;
    r += 1'000'000;
  }
  return r >= 500'000 ? q + 1 : q;
}

namespace {

// The labels of the export's own series (each report's, and the phases'),
// and `instance`.
std::set<std::string> OwnLabels() {
  std::set<std::string> own = {"phase", "state", "instance"};
  for (const ReportEntry& e : Reports())
    if (const MetricsSlot* slot = e.report->openmetrics)
      for (std::string_view label : slot->labels) own.emplace(label);
  return own;
}

}  // namespace

std::string LabelNameProblem(std::string_view name) {
  if (name.starts_with("__")) return "names beginning with __ are reserved to Prometheus";
  if (name.empty() || SanitizedLabelName(name) != name)
    return "not a label name (letters, digits and _, not a digit first)";
  if (name == "instance" || name == "job") return "give it with --" + std::string(name);
  if (OwnLabels().count(std::string(name)) != 0)
    return "a label of the export's own series: choose another name";
  return {};
}

// A --meta key named as a label given is renamed, not dropped: both
// values stay in the series.
std::string CommonLabels(const OpenMetricsOptions& options, const MetaList& meta) {
  std::set<std::string> own = OwnLabels();
  std::string out;
  auto add = [&](std::string_view name, std::string_view value) {
    if (!out.empty()) out.push_back(',');
    AppendLabel(out, name, value);
  };
  if (!options.instance.empty()) add("instance", options.instance);
  if (!options.job.empty()) {
    add("job", options.job);
    own.insert("job");
  }
  for (const auto& [name, value] : options.labels) {
    add(name, value);
    own.insert(name);
  }
  std::set<std::string> taken = own;
  for (const auto& [key, value] : meta) {
    std::string name = SanitizedLabelName(key);
    if (own.count(name) != 0) name = "meta_" + name;
    while (taken.count(name) != 0) name.push_back('_');
    taken.insert(name);
    add(name, value);
  }
  return out;
}

OpenMetricsExport::OpenMetricsExport(const RecordingInfo& info,
                                     const OpenMetricsOptions& options)
    : common_(CommonLabels(options, info.meta)),
      catalog_(info, common_, options.disk_only),
      spool_(options.spool_dir, options.block_bytes),
      procs_(options.spool_dir),
      phases_(options.spool_dir) {}

void OpenMetricsExport::OnSample(const RawSample& s) {
  int64_t ms = NearestMs(s.time_ns);
  if (spool_.rows() > 0 && ms <= last_ms_) {
    ++dropped_;
    return;
  }
  catalog_.FillRow(s, row_);
  row_[0] = static_cast<uint64_t>(ms);
  spool_.Append(row_);
  phases_.Sample(ms);
  last_ms_ = ms;
}

void OpenMetricsExport::OnEvent(const RecordingEvent& e) {
  procs_.Event(e);
  phases_.Event(e, NearestMs(e.time_ns));
}

void OpenMetricsExport::WriteFamily(std::string& out, const MetricFamily& family,
                                    const std::function<void()>& drain) {
  out.append("# TYPE ").append(family.name).append(family.counter ? " counter\n" : " gauge\n");
  if (!family.unit.empty())
    out.append("# UNIT ").append(family.name).append(" ").append(family.unit).append("\n");
  out.append("# HELP ").append(family.name).append(" ").append(family.help).append("\n");
  std::string sample_name = family.name + (family.counter ? "_total" : "");
  for (uint32_t id : family.series) {
    const MetricSeries& series = catalog_.series(id);
    std::string prefix = sample_name + series.labels + " ";
    ColumnSpool::Cursor times(spool_, 0), values(spool_, 1 + id);
    uint64_t t, v;
    while (times.Next(t) && values.Next(v)) {
      if (v == ColumnSpool::kAbsent) continue;
      out.append(prefix);
      AppendScaled(out, v, series.scale);
      out.push_back(' ');
      AppendTimestampMs(out, static_cast<int64_t>(t));
      out.push_back('\n');
      drain();
    }
  }
}

void OpenMetricsExport::Write(OutputStream& stream) {
  spool_.Finish();
  std::string out;
  out.reserve(1 << 17);
  auto drain = [&] {
    if (out.size() < (1 << 16)) return;
    stream.Write(out);
    out.clear();
  };
  for (const MetricFamily& family : catalog_.families())
    if (!family.series.empty()) WriteFamily(out, family, drain);
  procs_.Write(out, common_, drain);
  phases_.Write(out, common_, drain);
  out.append("# EOF\n");
  stream.Write(out);
  stream.Flush();
}

}  // namespace pm
