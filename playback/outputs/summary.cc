// The text follows PerfMonger's summarizer (perfmonger-summarizer.go):
// its Printf templates and its arithmetic, so the digits agree.
#include "playback/outputs/summary.hh"

#include "proto/json.hh"
#include "proto/text.hh"
#include "playback/outputs/phase_cost.hh"
#include "playback/reports/rates.hh"
#include "playback/reports/reports.hh"
#include "playback/statistics/span_stats.hh"
#include "playback/statistics/use_output.hh"

namespace pm {
namespace {

void AppendMetaBlock(std::string& out, const MetaList& meta) {
  out.append("Metadata:\n");
  for (const auto& [key, value] : meta) {
    out.append("  ");
    AppendPrintable(out, key);
    out.append(": ");
    AppendPrintable(out, value);
    out.push_back('\n');
  }
  out.push_back('\n');
}

ReportOptions OptionsOf(const SummaryInput& in) {
  ReportOptions options;
  options.disk_only = in.disk_only;
  options.all = in.all;
  options.legacy = in.legacy;
  options.recorded = &in.recorded;
  options.info = in.info;
  return options;
}

void AppendMetaJson(std::string& out, const MetaList& meta) {
  JsonObjectWriter o(out);
  for (const auto& [key, value] : meta) o.Str(key, value);
  o.Close();
}

void AppendTitle(std::string& out, const SummaryInput& in, const SummaryPauses& p) {
  out.append("== performance summary");
  if (!in.title_file.empty()) {
    out.append(" of '");
    AppendPrintable(out, in.title_file);
    out.append("'");
  }
  if (p.phase) {
    out.append(", phase '");
    AppendPrintable(out, *p.phase);
    out.append("'");
  }
  out.append(" ==\n");
}

// Each collector's, in kCollectors order.
void AppendReports(std::string& out, const SummaryInput& in,
                   void (*const Report::*slot)(std::string&, const Pair&)) {
  ReportOptions options = OptionsOf(in);
  Pair pair(*in.first, *in.last, TimeOrigin::Of(*in.first), options);
  for (const ReportEntry& e : Reports()) (e.report->*slot)(out, pair);
}

}  // namespace

std::string SummaryText(const SummaryInput& in, const SummaryPauses& p) {
  std::string out;
  AppendTitle(out, in, p);
  double duration = GoSeconds(in.last->time_ns - in.first->time_ns);
  if (p.has_pauses) {
    SummaryLine(out, "\nDuration: ", duration, 3, " sec");
    SummaryLine(out, "Paused: ", GoSeconds(p.paused_ns), 3, " sec\n");
  } else {
    SummaryLine(out, "\nDuration: ", duration, 3, " sec\n");
  }
  AppendReports(out, in, &Report::summary_text);
  if (in.verdict) AppendEveryoneText(out, in.verdict->everyone, in.verdict->verdict);
  if (in.use) AppendUseText(out, *in.use);
  if (in.stats) AppendStatsText(out, *in.stats);
  if (in.clock && !in.clock->empty()) AppendClockText(out, *in.clock);
  if (!in.meta.empty()) AppendMetaBlock(out, in.meta);
  return PrintableLines(out);  // whatever a report quotes, no terminal control
}

std::string SummaryJson(const SummaryInput& in, const SummaryPauses& p) {
  std::string out;
  JsonObjectWriter o(out);
  if (p.phase) o.Str("phase", *p.phase);
  AppendFixed(o.Key("exectime"), GoSeconds(in.last->time_ns - in.first->time_ns), 3);
  if (p.has_pauses) AppendFixed(o.Key("paused_time"), GoSeconds(p.paused_ns), 3);
  AppendReports(out, in, &Report::summary_json);
  if (in.verdict) AppendEveryoneJson(out, in.verdict->everyone, in.verdict->verdict);
  if (in.use) AppendUseJson(out, *in.use);
  if (in.stats) AppendStatsJson(out, *in.stats);
  if (in.clock && !in.clock->empty()) AppendClockSummaryJson(o.Key("clock"), *in.clock);
  if (!in.meta.empty()) AppendMetaJson(o.Key("meta"), in.meta);
  o.Close();
  out.push_back('\n');
  return out;
}

}  // namespace pm
