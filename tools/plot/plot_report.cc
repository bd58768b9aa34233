#include "tools/plot/plot_report.hh"

#include <array>
#include <cstdio>
#include <ctime>
#include <string_view>

#include "tools/plot/plot_report_text.hh"
#include "tools/plot/plot_svg.hh"

namespace pm {

const char kReportStyle[] =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1320px;color:#202020}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
    "table{border-collapse:collapse}th,td{text-align:left;padding:.15em .8em .15em 0;"
    "vertical-align:top}th{color:#505050;font-weight:normal}"
    "pre{background:#f6f6f6;padding:.8em;overflow-x:auto}"
    "figure{margin:1em 0}svg{max-width:100%;height:auto}";

namespace {

std::string Text(const std::string& s) { return XmlEscaped(s); }

// Text() line by line (it makes a newline '?').
std::string TextLines(const std::string& s) {
  std::string out;
  for (size_t begin = 0; begin < s.size();) {
    size_t end = s.find('\n', begin);
    if (end == std::string::npos) end = s.size();
    out += Text(s.substr(begin, end - begin)) + "\n";
    begin = end + 1;
  }
  return out;
}

// "YYYY-MM-DD HH:MM:SS.mmm UTC"
std::string Utc(int64_t ns) {
  time_t t = static_cast<time_t>(ns / 1000000000);
  struct tm tm;
  char buf[48], out[64];
  if (!gmtime_r(&t, &tm) || !strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm)) return "?";
  std::snprintf(out, sizeof out, "%s.%03d UTC", buf, static_cast<int>(ns % 1000000000 / 1000000));
  return out;
}

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

void Row(std::string& out, std::string_view name, const std::string& value) {
  out.append("<tr><th>").append(name).append("</th><td>").append(value).append("</td></tr>\n");
}

// The header's rows, as text: host, kernel, start, end, duration, interval,
// metadata.
std::vector<std::pair<std::string, std::string>> Facts(const RecordingInfo& info,
                                                       const PlotData& data) {
  std::vector<std::pair<std::string, std::string>> out;
  out.emplace_back("host", info.host.empty() ? "?" : info.host);
  if (!info.kernel.empty()) out.emplace_back("kernel", info.kernel);
  out.emplace_back("start", Utc(data.first_ns()));
  out.emplace_back("end", Utc(data.last_ns()));
  double duration = static_cast<double>(data.last_ns() - data.first_ns()) / 1e9;
  out.emplace_back("Duration", Seconds(duration));
  if (info.interval_ns > 0)
    out.emplace_back("interval", Seconds(static_cast<double>(info.interval_ns) / 1e9));
  for (const auto& [key, value] : info.meta) out.emplace_back(key, value);
  return out;
}

std::string Header(const RecordingInfo& info, const PlotData& data) {
  std::string out = "<table>\n";
  for (const auto& [name, value] : Facts(info, data)) Row(out, Text(name), Text(value));
  return out + "</table>\n";
}

// One row of the phases: label, wall time, elapsed, "to (length)".
using PhaseRow = std::array<std::string, 4>;

// Each mark opens a phase that lasts to the next mark or the end; pauses
// listed after them.
std::vector<PhaseRow> Phases(const PlotData& data) {
  std::vector<PlotMark> marks = data.marks();
  std::vector<PhaseRow> out;
  auto row = [&](const std::string& label, double from, double to) {
    out.push_back({label, Utc(data.origin_ns() + static_cast<int64_t>(from * 1e9)), Seconds(from),
                   Seconds(to) + " (" + Seconds(to - from) + ")"});
  };
  double end = static_cast<double>(data.last_ns() - data.origin_ns()) / 1e9;
  for (size_t i = 0; i < marks.size(); ++i)
    row(marks[i].label, marks[i].elapsed, i + 1 < marks.size() ? marks[i + 1].elapsed : end);
  for (const PlotSpan& p : data.pauses()) row("paused", p.from, p.to);
  return out;
}

std::string Events(const PlotData& data) {
  std::vector<PhaseRow> rows = Phases(data);
  if (rows.empty()) return {};
  std::string out = "<h2>Phases and marks</h2>\n<table>\n"
                    "<tr><th>mark</th><th>at</th><th>elapsed</th><th>phase to</th></tr>\n";
  for (const PhaseRow& r : rows)
    out += "<tr><td>" + Text(r[0]) + "</td><td>" + r[1] + "</td><td>" + r[2] + "</td><td>" +
           r[3] + "</td></tr>\n";
  return out + "</table>\n";
}

// The summary after the charts, its rows that are 0 throughout left out
// and counted in a line above it.
std::string Summary(const std::string& summary) {
  if (summary.empty()) return {};
  ZeroRowsLeftOut kept = LeaveOutZeroRows(summary);
  std::string out = "<h2>Summary</h2>\n";
  if (!kept.blocks.empty() || kept.stats_rows > 0) {
    std::string names;
    for (const std::string& b : kept.blocks) names += (names.empty() ? "" : ", ") + b;
    out += "<p>Left out as 0 throughout (at the printed resolution): " +
           std::to_string(kept.blocks.size()) + " disks and interfaces" +
           (names.empty() ? "" : " (" + Text(names) + ")") + ", " +
           std::to_string(kept.stats_rows) + " statistics rows.</p>\n";
  }
  return out + "<pre>" + TextLines(kept.text) + "</pre>\n";
}

// gnuplot's SVG document inside the page: its XML declaration dropped.
std::string Inline(const std::string& svg) {
  size_t at = svg.find("<svg");
  return at == std::string::npos ? std::string() : svg.substr(at);
}

std::string ReportTitle(const RecordingInfo& info, const PlotData& data) {
  return "perfmonger report: " + (info.host.empty() ? std::string("?") : info.host) + ", " +
         Utc(data.first_ns());
}

// The PDF's first page, on the charts' terminal: the header and the phases
// (at most kPhasesShown) on the left, the summary's main figures on the right.
std::string PdfHeaderPage(const RecordingInfo& info, const PlotData& data,
                          const std::string& summary) {
  constexpr size_t kPhasesShown = 24;
  std::vector<std::string> left;
  for (const auto& [name, value] : Facts(info, data)) left.push_back(name + ": " + value);
  std::vector<PhaseRow> phases = Phases(data);
  if (!phases.empty()) left.insert(left.end(), {"", "Phases and marks (elapsed, to):"});
  for (size_t i = 0; i < phases.size() && i < kPhasesShown; ++i)
    left.push_back("  " + phases[i][0] + "  " + phases[i][2] + " to " + phases[i][3]);
  if (phases.size() > kPhasesShown)
    left.push_back("  and " + std::to_string(phases.size() - kPhasesShown) +
                   " more (the HTML report lists them all)");
  return "unset border\nunset tics\nunset key\nunset grid\nset xrange [0:1]\nset yrange [0:1]\n"
         "set title " + gp::Quote(ReportTitle(info, data)) + " noenhanced\n"
         "set label 1 " + gp::QuoteLines(left) +
         " at screen 0.04,0.9 left font 'Sans,10' noenhanced\n"
         "set label 2 " + gp::QuoteLines(SummaryMainFigures(summary)) +
         " at screen 0.5,0.9 left font 'Monospace,10' noenhanced\n"
         "plot 2 notitle\nreset\n";
}

}  // namespace

std::string ReportHtml(const RecordingInfo& info, const PlotData& data,
                       const std::string& summary, const ReportUse& use,
                       const std::vector<ReportChart>& charts) {
  std::string title = Text(ReportTitle(info, data));
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<link rel=\"icon\" href=\"data:,\">\n<title>" + title + "</title>\n<style>" +
                    kReportStyle + "</style>\n</head>\n<body>\n<h1>" + title + "</h1>\n";
  out += Header(info, data);
  out += Events(data);
  out += ReportUseHtml(use);
  out += "<h2>Charts</h2>\n";
  for (const ReportChart& c : charts)
    out += "<figure>\n" + Inline(c.svg) + "\n</figure>\n";
  out += Summary(summary);
  return out + "</body>\n</html>\n";
}

std::string ReportPdfScript(const RecordingInfo& info, const PlotData& data,
                            const std::string& summary, const ReportUse& use,
                            const std::vector<ChartScript>& charts, const std::string& output) {
  std::string terminal, body;
  for (const ChartScript& c : charts) {
    for (size_t begin = 0; begin < c.script.size();) {
      size_t end = c.script.find('\n', begin);
      std::string_view line(c.script.data() + begin, end - begin);
      begin = end + 1;
      if (line.starts_with("set output ")) continue;
      if (line.starts_with("set terminal ")) {
        if (terminal.empty()) terminal = line;
        continue;
      }
      body.append(line).push_back('\n');
    }
    body += "reset\n";
  }
  if (terminal.empty()) terminal = "set terminal pdfcairo";
  return terminal + "\nset output " + gp::Path(output) + "\n" + PdfHeaderPage(info, data, summary) +
         ReportUsePdfPage(use) + body;
}

}  // namespace pm
