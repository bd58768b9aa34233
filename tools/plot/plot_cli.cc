#include "tools/plot/plot_cli.hh"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/error.hh"
#include "common/io.hh"
#include "common/output_file.hh"
#include "common/program_path.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/outputs/phases.hh"
#include "playback/reports/reports.hh"
#include "playback/statistics/stats_walk.hh"
#include "playback/outputs/summary.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/text.hh"
#include "tools/plot/plot_args.hh"
#include "tools/plot/plot_files.hh"
#include "tools/plot/plot_gnuplot.hh"
#include "tools/plot/plot_report.hh"
#include "tools/plot/plot_report_use.hh"
#include "tools/plot/plot_scratch.hh"
#include "tools/plot/plot_scripts.hh"
#include "tools/plot/plot_stop.hh"
#include "tools/plot/plot_svg.hh"
#include "tools/readers/recording_input.hh"

namespace pm {
namespace {

using Item = RecordingReader::Item;
constexpr std::chrono::seconds kGnuplotTimeout{120};

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

const size_t kDiskMember = MemberIndexOf("disk");

// Every disk the recording names, filtered or not: a --disk-only that
// keeps none of them is told which there were.
void NoteDisks(const RawSample& s, std::set<std::string>& disks) {
  const MemberRows& rows = s.members[kDiskMember];
  disks.insert(rows.names.begin(), rows.names.end());
}

// What the walk gathers beside the data: the disks, and for --report's
// summary the active span.
struct Walked {
  std::set<std::string> disks;
  ActiveSpan span;
  UseThresholds use;               // summary --use's defaults
  std::optional<StatsWalk> stats;  // --report: the summary's statistics and USE
};

void Walk(RecordingInput& input, PlotData& data, Walked& walked) {
  RawSample sample;
  RecordingEvent event;
  for (bool first = true;; first = false) {
    Item item = input.Next(sample, event);
    if (item == Item::kEnd) return;
    if (first) {  // the recording's origin, also in a window
      data.SetOrigin(TimeOrigin::Of(*input.origin()));
      if (walked.stats) walked.stats->SetOrigin(TimeOrigin::Of(*input.origin()));
    }
    if (item == Item::kSample) {
      NoteDisks(sample, walked.disks);
      walked.span.Sample(sample);
      data.OnSample(sample);
      if (walked.stats) walked.stats->OnSample(sample);
    } else {
      if (event.kind == "pause" || event.kind == "resume")
        walked.span.Break(event.kind == "pause", event.time_ns);
      data.OnEvent(event);
      if (walked.stats) walked.stats->OnEvent(event);
    }
  }
}

// `summary`'s text of the whole recording (as `perfmonger summary --all
// --stats`).
std::string SummaryOf(const PlotArgs& args, const RecordingInput& input, const Walked& walked) {
  const ActiveSpan& span = walked.span;
  RawSample end = span.ActiveEnd();
  SummaryInput in;
  in.title_file = args.file;
  in.recorded = input.info().recorded;
  in.info = &input.info();
  in.legacy = input.info().legacy();
  in.first = &span.first();
  in.last = &end;
  in.meta = input.info().meta;
  in.all = true;
  in.disk_only = args.disk_only ? &*args.disk_only : nullptr;
  if (walked.stats) in.stats = &walked.stats->whole();
  SummaryPauses p;
  p.has_pauses = span.has_pauses();
  p.paused_ns = span.paused_ns();
  return SummaryText(in, p);
}

void WarnIfNoDiskKept(const PlotArgs& args, const std::string& name, const PlotData& data,
                      const std::set<std::string>& disks) {
  if (!args.disk_only) return;
  for (const std::string& block : data.Blocks("disk.dat"))
    if (block != "total") return;
  std::string listed;
  for (const std::string& d : disks) listed += (listed.empty() ? "" : ", ") + gp::Shown(d);
  std::fprintf(stderr, "warning: %s: --disk-only '%s' matches none of its disks (%s): "
               "no disk chart\n", name.c_str(), gp::Shown(args.disk_only_pattern).c_str(),
               listed.empty() ? "it has none" : listed.c_str());
}

// A file written, as the user would name it: under -o as given.
void Wrote(const std::string& dir, const std::string& file) {
  std::string shown = dir == "." ? file : dir + (dir.ends_with('/') ? "" : "/") + file;
  std::printf("%s\n", shown.c_str());
  std::fflush(stdout);
}

// Like `mkdir -p`: PerfMonger fails on a missing -o directory; we make it.
void MakeDirectories(const std::string& path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string part = path.substr(0, slash);
    if (mkdir(part.c_str(), 0777) < 0 && errno != EEXIST)
      throw SystemError("--output-dir: cannot create " + part);
    if (slash == std::string::npos) break;
  }
  struct stat st;
  if (stat(path.c_str(), &st) < 0 || !S_ISDIR(st.st_mode))
    throw UsageError("--output-dir " + path + ": not a directory");
}

// -o made absolute, "." as the working directory itself: messages name
// the files as they are.
std::string OutputDir(const std::string& dir) {
  std::string abs = AbsolutePath(dir);
  if (abs.size() > 2 && abs.ends_with("/.")) abs.resize(abs.size() - 2);
  return abs;
}

void WriteFile(const std::string& path, const std::string& text) {
  WriteOutputFile(path, text, 0644);
}

ChartSetup SetupFor(const PlotArgs& args, const RecordingInfo& info, const PlotData& data) {
  ChartSetup setup;
  setup.type = args.type;  // a report: svg for its HTML page, or pdf
  setup.subtitle = Subtitle(info);
  setup.data_prefix = args.prefix;
  // Relative: drawn in the scratch directory, and a saved script draws
  // again with `gnuplot cpu.gp` in its own.
  setup.output_prefix = args.prefix;
  // The axis starts at the first point, in the recording's time (a
  // window's, or a cut's, is later than 0).
  setup.offset_time = std::max(args.offset_time, data.start());
  setup.directions = args.directions;
  setup.numkey_threshold = args.numkey_threshold;
  setup.iops_max = args.iops_max;
  setup.all_devices = args.all_devices;
  setup.bits = args.bits;
  if (args.wall_clock) {
    setup.wall_clock = static_cast<double>(data.origin_ns()) / 1e9;
    setup.clock_tenths = data.end() - setup.offset_time < 30;  // ticks a second apart or less
  }
  return setup;
}

// The data files and scripts into `dir`; `shown_dir` (-o, with --save)
// has them listed on stdout.
void WriteInputs(const std::string& dir, const std::string& prefix, const PlotData& data,
                 const std::vector<ChartScript>& charts, const std::string* shown_dir) {
  auto write = [&](const std::string& name, const std::string& text) {
    if (text.empty()) return;
    WriteFile(dir + "/" + prefix + name, text);
    if (shown_dir) Wrote(*shown_dir, prefix + name);
  };
  for (size_t r = 0; r < Reports().size(); ++r)
    if (const PlotSlot* slot = PlotSlotOf(r))
      for (size_t f = 0; f < slot->files.size(); ++f)
        write(std::string(slot->files[f].name), data.File(r, f));
  for (const ChartScript& chart : charts)
    for (const DataFile& file : chart.files) write(file.name, file.text);
  for (const ChartScript& chart : charts) write(chart.name + ".gp", chart.script);
}

std::string GnuplotOrThrow(const PlotArgs& args, const std::string& kept) {
  ProgramLookup found = FindProgram(args.gnuplot);
  if (!found.error) return found.path;
  std::string what = args.gnuplot == "gnuplot"
                         ? "gnuplot is not on PATH"
                         : "no gnuplot at '" + args.gnuplot + "' (" + found.reason + ")";
  throw ChartError(what + ": install Debian's gnuplot-nox (apt-get install gnuplot-nox)"
                   " or name one with --with-gnuplot PATH" + kept);
}

// Where the work happens. The stop signals are blocked first and let go
// last: the scratch directory never outlives plot.
struct Work {
  const PlotArgs& args;
  std::string out_dir;  // -o, absolute
  StopSignals stop;
  ScratchDir scratch;
  std::string gnuplot;

  // `gp` drawn in the scratch directory; the file it draws, checked.
  std::string Draw(const std::string& gp, const std::string& file, ChartType type) const {
    RunGnuplot(gnuplot, scratch.path(), "./" + args.prefix + gp, kGnuplotTimeout, stop);
    return ReadChart(scratch / file, type);
  }
  // `bytes` written to -o as `file` and listed.
  void Keep(const std::string& file, const std::string& bytes) const {
    WriteFile(out_dir + "/" + file, bytes);
    Wrote(args.output_dir, file);
    stop.ThrowIfStopped();
  }
};

// --report: every chart as SVG into one HTML page, or (-T pdf) one PDF.
void DrawReport(const RecordingInfo& info, const PlotData& data, const std::string& summary,
                const ReportUse& use, const std::vector<ChartScript>& charts, const Work& work) {
  const PlotArgs& args = work.args;
  std::string report = args.prefix + "report." + (args.type == ChartType::kPdf ? "pdf" : "html");
  if (args.type == ChartType::kPdf) {
    std::string script = ReportPdfScript(info, data, summary, use, charts, report);
    WriteFile(work.scratch / (args.prefix + "report.gp"), script);
    if (args.save) work.Keep(args.prefix + "report.gp", script);
    return work.Keep(report, work.Draw("report.gp", report, ChartType::kPdf));
  }
  std::vector<ReportChart> drawn;
  for (const ChartScript& chart : charts) {
    std::string file = args.prefix + chart.name + ".svg";
    drawn.push_back({chart.title, TitledSvg(work.Draw(chart.name + ".gp", file,
                                                      ChartType::kSvg), chart.title)});
    if (args.save) work.Keep(file, drawn.back().svg);
  }
  work.Keep(report, ReportHtml(info, data, summary, use, drawn));
}

// The data files and scripts into a scratch directory (and DIR, --save),
// then one gnuplot run per chart (or the report) there.
void DrawCharts(const PlotArgs& args, const RecordingInfo& info, const PlotData& data,
                const std::string& summary, const ReportUse& use) {
  // Made first: a name gnuplot cannot open is refused before anything is created.
  std::vector<ChartScript> charts = MakeChartScripts(data, SetupFor(args, info, data));
  if (args.report) BindingChartsFirst(charts, use.binding);
  Work work{args, OutputDir(args.output_dir), {}, {}, {}};
  MakeDirectories(args.output_dir);
  if (args.save) WriteInputs(work.out_dir, args.prefix, data, charts, &args.output_dir);
  WriteInputs(work.scratch.path(), args.prefix, data, charts, nullptr);
  work.gnuplot = GnuplotOrThrow(
      args, args.save ? " (the data files and scripts are in " + work.out_dir + ")" : "");
  work.stop.ThrowIfStopped();
  if (args.report) return DrawReport(info, data, summary, use, charts, work);
  for (const ChartScript& chart : charts) {
    std::string file = args.prefix + chart.name + "." + ChartExtension(args.type);
    std::string bytes = work.Draw(chart.name + ".gp", file, args.type);
    work.Keep(file, args.type == ChartType::kSvg ? TitledSvg(bytes, chart.title) : bytes);
  }
}

int Plot(const PlotArgs& args) {
  RecordingInput input(args.files, {.window = args.window});
  if (!input.Open()) {
    Note("plot", input.name() + " is empty: nothing to plot");
    return 0;
  }
  PlotData data(args.disk_only ? &*args.disk_only : nullptr, input.info().legacy(),
                &input.info());
  Walked walked;
  ReportOptions stats_options;  // as summary gives its statistics
  stats_options.all = true;
  stats_options.legacy = input.info().legacy();
  stats_options.recorded = &input.info().recorded;
  stats_options.info = &input.info();
  stats_options.disk_only = args.disk_only ? &*args.disk_only : nullptr;
  if (args.report)
    walked.stats.emplace(StatsWalkOptions{.split = true, .use = &walked.use,
                                          .num_core = input.info().num_core},
                         stats_options);
  Walk(input, data, walked);
  input.Finish();
  WarnIfNoDiskKept(args, input.name(), data, walked.disks);
  if (data.pairs() == 0) {
    Note("plot", input.name() + " has fewer than two samples: nothing to plot");
    return input.ExitStatus();
  }
  if (args.offset_time >= data.end() && args.offset_time > 0)
    throw UsageError("--offset-time " + Seconds(args.offset_time) + ": " + input.name() +
                     "'s last point is at " + Seconds(data.end()) + " s");
  DrawCharts(args, input.info(), data,
             args.report ? SummaryOf(args, input, walked) : std::string(),
             args.report ? ReportUseOf(*walked.stats) : ReportUse{});
  return input.ExitStatus();
}

}  // namespace

int PlotMain(int argc, char** argv) {
  return RunReaderCommand("plot", [&]() {
    PlotArgs args = ParsePlotArgs(argc, argv);
    if (args.help) {
      std::fputs(PlotCommand().Usage().c_str(), stdout);
      return 0;
    }
    try {
      return Plot(args);
    } catch (const ChartError& e) {
      // gnuplot's own message may quote a chart's text: escaped whole.
      std::fprintf(stderr, "perfmonger plot: error: %s\n", Printable(e.what()).c_str());
      return 1;
    } catch (const PlotStopped& e) {
      DieBy(e.signo());  // the scratch directory is gone
    }
  });
}

}  // namespace pm
