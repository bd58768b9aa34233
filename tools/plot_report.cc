#include "tools/plot_report.hh"

#include <cstdio>
#include <ctime>
#include <string_view>

#include "tools/plot_svg.hh"

namespace pm {
namespace {

constexpr char kStyle[] =
    "body{font-family:sans-serif;margin:1.5em auto;max-width:1320px;color:#202020}"
    "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}"
    "table{border-collapse:collapse}th,td{text-align:left;padding:.15em .8em .15em 0;"
    "vertical-align:top}th{color:#505050;font-weight:normal}"
    "pre{background:#f6f6f6;padding:.8em;overflow-x:auto}"
    "figure{margin:1em 0}svg{max-width:100%;height:auto}";

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

std::string Header(const RecordingInfo& info, const PlotData& data) {
  std::string out = "<table>\n";
  Row(out, "host", Text(info.host.empty() ? "?" : info.host));
  if (!info.kernel.empty()) Row(out, "kernel", Text(info.kernel));
  Row(out, "start", Utc(data.first_ns()));
  Row(out, "end", Utc(data.last_ns()) + " (" +
                      Seconds(static_cast<double>(data.last_ns() - data.first_ns()) / 1e9) + ")");
  if (info.interval_ns > 0) Row(out, "interval", Seconds(static_cast<double>(info.interval_ns) / 1e9));
  for (const auto& [key, value] : info.meta) Row(out, Text(key), Text(value));
  return out + "</table>\n";
}

// Each mark opens a phase that lasts to the next mark or the end; pauses
// listed after them.
std::string Events(const PlotData& data) {
  std::vector<PlotMark> marks = data.marks();
  std::vector<PlotSpan> pauses = data.pauses();
  if (marks.empty() && pauses.empty()) return {};
  std::string out = "<h2>Phases and marks</h2>\n<table>\n"
                    "<tr><th>mark</th><th>at</th><th>elapsed</th><th>phase to</th></tr>\n";
  auto wall = [&](double elapsed) {
    return Utc(data.first_ns() + static_cast<int64_t>(elapsed * 1e9));
  };
  for (size_t i = 0; i < marks.size(); ++i) {
    double to = i + 1 < marks.size() ? marks[i + 1].elapsed
                                     : static_cast<double>(data.last_ns() - data.first_ns()) / 1e9;
    out += "<tr><td>" + Text(marks[i].label) + "</td><td>" + wall(marks[i].elapsed) +
           "</td><td>" + Seconds(marks[i].elapsed) + "</td><td>" + Seconds(to) + " (" +
           Seconds(to - marks[i].elapsed) + ")</td></tr>\n";
  }
  for (const PlotSpan& p : pauses)
    out += "<tr><td>paused</td><td>" + wall(p.from) + "</td><td>" + Seconds(p.from) +
           "</td><td>" + Seconds(p.to) + " (" + Seconds(p.to - p.from) + ")</td></tr>\n";
  return out + "</table>\n";
}

// gnuplot's SVG document inside the page: its XML declaration dropped.
std::string Inline(const std::string& svg) {
  size_t at = svg.find("<svg");
  return at == std::string::npos ? std::string() : svg.substr(at);
}

}  // namespace

std::string ReportHtml(const RecordingInfo& info, const PlotData& data,
                       const std::string& summary, const std::vector<ReportChart>& charts) {
  std::string title = "perfmonger report: " + Text(info.host.empty() ? "?" : info.host) + ", " +
                      Utc(data.first_ns());
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<link rel=\"icon\" href=\"data:,\">\n<title>" + title + "</title>\n<style>" +
                    kStyle + "</style>\n</head>\n<body>\n<h1>" + title + "</h1>\n";
  out += Header(info, data);
  if (!summary.empty()) out += "<h2>Summary</h2>\n<pre>" + TextLines(summary) + "</pre>\n";
  out += Events(data);
  out += "<h2>Charts</h2>\n";
  for (const ReportChart& c : charts)
    out += "<figure>\n" + Inline(c.svg) + "\n</figure>\n";
  return out + "</body>\n</html>\n";
}

std::string ReportPdfScript(const std::vector<ChartScript>& charts, const std::string& output) {
  std::string out;
  for (const ChartScript& c : charts) {
    bool first = out.empty();
    for (size_t begin = 0; begin < c.script.size();) {
      size_t end = c.script.find('\n', begin);
      std::string_view line(c.script.data() + begin, end - begin);
      begin = end + 1;
      if (line.starts_with("set output ")) {
        if (first) out += "set output " + gp::Path(output) + "\n";
        continue;
      }
      if (line.starts_with("set terminal ") && !first) continue;
      out.append(line).push_back('\n');
    }
    out += "reset\n";
  }
  return out;
}

}  // namespace pm
