#include "tools/diff/diff_report.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "common/error.hh"
#include "common/output_file.hh"
#include "common/program_path.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/report.hh"
#include "playback/reports/reports.hh"
#include "tools/diff/overlay_charts.hh"
#include "tools/plot/plot_files.hh"
#include "tools/plot/plot_gnuplot.hh"
#include "tools/plot/plot_report.hh"
#include "tools/plot/plot_scratch.hh"
#include "tools/plot/plot_svg.hh"
#include "tools/readers/recording_input.hh"

namespace pm {
namespace {

constexpr std::chrono::seconds kGnuplotTimeout{120};

// A run's plot data, as `plot` gathers it (the whole recording).
PlotData ReadPlotData(const std::string& path) {
  RecordingInput input(path);
  if (!input.Open()) throw UsageError(input.name() + " is empty: nothing to compare");
  PlotData data(nullptr, input.info().legacy(), &input.info());
  RawSample sample;
  RecordingEvent event;
  using Item = RecordingReader::Item;
  for (Item item; (item = input.Next(sample, event)) != Item::kEnd;) {
    if (item == Item::kSample) data.OnSample(sample);
    else data.OnEvent(event);
  }
  return data;
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos || slash + 1 == path.size() ? path : path.substr(slash + 1);
}

// Each report's data files of `data`, moved onto the shared axis, into
// the scratch directory with `prefix`.
void WriteData(const ScratchDir& dir, const std::string& prefix, const PlotData& data,
               const Timeline& timeline, int run) {
  for (size_t r = 0; r < Reports().size(); ++r)
    if (const PlotSlot* slot = PlotSlotOf(r))
      for (size_t f = 0; f < slot->files.size(); ++f)
        WriteOutputFile(dir / (prefix + std::string(slot->files[f].name)),
                        Realigned(data.File(r, f), timeline, run), 0600);
}

std::string Gnuplot() {
  ProgramLookup found = FindProgram("gnuplot");
  if (found.error)
    throw ChartError("--report: gnuplot is not on PATH: install Debian's gnuplot-nox "
                     "(apt-get install gnuplot-nox)");
  return found.path;
}

std::string Page(const DiffReportRequest& request, const std::string& alignment,
                 const std::vector<ReportChart>& charts) {
  const std::string title =
      XmlEscaped("perfmonger diff: " + request.a + " against " + request.b);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                    "<link rel=\"icon\" href=\"data:,\">\n<title>" + title + "</title>\n<style>" +
                    kReportStyle + "</style>\n</head>\n<body>\n<h1>" + title + "</h1>\n";
  out += "<table>\n<tr><th>A</th><td>" + XmlEscaped(request.a) + "</td></tr>\n<tr><th>B</th><td>" +
         XmlEscaped(request.b) + "</td></tr>\n<tr><th>time axis</th><td>" +
         XmlEscaped(alignment) + "</td></tr>\n</table>\n";
  out += "<h2>Changes</h2>\n<pre>";
  for (size_t begin = 0; begin < request.table.size();) {  // XmlEscaped makes '\n' '?'
    const size_t end = std::min(request.table.find('\n', begin), request.table.size());
    out += XmlEscaped(request.table.substr(begin, end - begin)) + "\n";
    begin = end + 1;
  }
  out += "</pre>\n<h2>Charts</h2>\n";
  for (const ReportChart& c : charts)
    out += "<figure>\n" + c.svg.substr(std::min(c.svg.find("<svg"), c.svg.size())) +
           "\n</figure>\n";
  return out + "</body>\n</html>\n";
}

}  // namespace

void CheckReport(const std::string& path, const std::string& a, const std::string& b) {
  if (path.empty()) throw UsageError("--report '': name a file, e.g. --report diff.html");
  for (const std::string& run : {a, b})
    if (run.empty() || run == "-")
      throw UsageError("--report reads the runs a second time: name files, not standard input");
  struct stat st;
  const bool existed = lstat(path.c_str(), &st) == 0;
  try {
    OpenOutputFile(path, O_WRONLY | O_CREAT | O_NONBLOCK, 0644);  // not truncated
  } catch (const std::exception& e) {
    throw UsageError("--report: " + std::string(e.what()) +
                     " (name a file in a writable directory)");
  }
  if (!existed) unlink(path.c_str());
  Gnuplot();
}

void WriteDiffReport(const DiffReportRequest& request) {
  const PlotData data[2] = {ReadPlotData(request.a), ReadPlotData(request.b)};
  const RunPhases phases[2] = {PhasesOf(data[0]), PhasesOf(data[1])};
  const Timeline timeline = request.align_time ? AlignByTime(phases[0], phases[1])
                                               : AlignByLabel(phases[0], phases[1]);
  const std::string alignment =
      request.align_time ? "relative time, A's marks"
                         : "phases aligned by mark label, each as long as the longer run's";
  const OverlayRun runs[2] = {{&data[0], "A: " + BaseName(request.a), "a-"},
                              {&data[1], "B: " + BaseName(request.b), "b-"}};
  const std::vector<OverlayScript> scripts = MakeOverlayScripts(
      runs, timeline,
      BaseName(request.a) + " (A, blue) and " + BaseName(request.b) + " (B, red); " + alignment);
  StopSignals stop;
  ScratchDir scratch;
  for (int run = 0; run < 2; ++run) WriteData(scratch, runs[run].prefix, data[run], timeline, run);
  const std::string gnuplot = Gnuplot();
  std::vector<ReportChart> charts;
  for (const OverlayScript& s : scripts) {
    WriteOutputFile(scratch / (s.name + ".gp"), s.script, 0600);
    RunGnuplot(gnuplot, scratch.path(), "./" + s.name + ".gp", kGnuplotTimeout, stop);
    charts.push_back({s.title, TitledSvg(ReadChart(scratch / (s.name + ".svg"), ChartType::kSvg),
                                         s.title)});
  }
  WriteOutputFile(request.path, Page(request, alignment, charts), 0644);
}

}  // namespace pm
