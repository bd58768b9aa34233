// `plot --report`: every chart in one file. HTML (the default): one
// self-contained page, nothing fetched — a header (host, kernel, start,
// end, duration, interval, metadata), the phases and marks with their
// times, the USE table (plot_report_use.hh), every chart as inline SVG
// (the binding resource's first), then the summary (its disks,
// interfaces and statistics rows that are 0 throughout left out, counted
// in a note). PDF (-T pdf): a
// header page, a USE page, then one page per chart, from one gnuplot run.
#pragma once

#include <string>
#include <vector>

#include "playback/outputs/plot_data.hh"
#include "tools/plot/plot_report_use.hh"
#include "tools/plot/plot_scripts.hh"

namespace pm {

// The page's style sheet (also `diff --report`'s).
extern const char kReportStyle[];

struct ReportChart {
  std::string title;  // ChartScript::title
  std::string svg;    // gnuplot's file
};

// The HTML page. Every string from the recording is escaped (and shown as
// gp::Shown() shows it).
std::string ReportHtml(const RecordingInfo& info, const PlotData& data,
                       const std::string& summary, const ReportUse& use,
                       const std::vector<ReportChart>& charts);

// One gnuplot script drawing into `output` (a PDF) a header page (the
// HTML page's header, phases and the summary's main figures), the USE
// page, then every chart, a page each: the charts' scripts (pdfcairo), their own
// `set output` left out.
std::string ReportPdfScript(const RecordingInfo& info, const PlotData& data,
                            const std::string& summary, const ReportUse& use,
                            const std::vector<ChartScript>& charts, const std::string& output);

}  // namespace pm
