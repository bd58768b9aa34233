#include "tools/plot_cli.hh"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/error.hh"
#include "common/io.hh"
#include "common/output_file.hh"
#include "common/program_path.hh"
#include "playback/plot_chart.hh"
#include "playback/plot_data.hh"
#include "playback/phases.hh"
#include "playback/reports.hh"
#include "playback/stats_walk.hh"
#include "playback/summary.hh"
#include "proto/pgr_collectors.hh"
#include "tools/plot_args.hh"
#include "tools/plot_gnuplot.hh"
#include "tools/plot_report.hh"
#include "tools/plot_scripts.hh"
#include "tools/plot_svg.hh"
#include "tools/recording_input.hh"

namespace pm {
namespace {

using Item = RecordingReader::Item;
constexpr std::chrono::seconds kGnuplotTimeout{120};

std::string Seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

constexpr size_t kDiskMember = PgrMemberIndex("disk");

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
  std::optional<StatsWalk> stats;  // --report: the summary's statistics
};

void Walk(RecordingInput& input, PlotData& data, Walked& walked) {
  RawSample sample;
  RecordingEvent event;
  for (;;) {
    Item item = input.Next(sample, event);
    if (item == Item::kEnd) return;
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

// A private directory for the data and scripts when they are not kept.
class ScratchDir {
 public:
  ScratchDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/perfmonger-plot.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr)
      throw SystemError("cannot create a scratch directory " + pattern);
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;  // nothing to report it to: best effort
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

void WriteFile(const std::string& path, const std::string& text) {
  UniqueFd fd = OpenOutputFile(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  WriteAll(fd.Get(), text);
}

ChartSetup SetupFor(const PlotArgs& args, const RecordingInfo& info, const PlotData& data,
                    const std::string& output_prefix) {
  ChartSetup setup;
  setup.type = args.type;  // a report: svg for its HTML page, or pdf
  setup.subtitle = Subtitle(info);
  setup.data_prefix = args.prefix;
  setup.output_prefix = output_prefix;
  setup.offset_time = args.offset_time;
  setup.directions = args.directions;
  setup.numkey_threshold = args.numkey_threshold;
  setup.iops_max = args.iops_max;
  setup.all_devices = args.all_devices;
  setup.bits = args.bits;
  if (args.wall_clock) {
    setup.wall_clock = static_cast<double>(data.first_ns()) / 1e9;
    setup.clock_tenths = data.end() - args.offset_time < 30;  // ticks a second apart or less
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

// Where the work happens: DIR with --save, else a scratch directory.
struct Work {
  std::string out_dir;  // -o, absolute
  std::optional<ScratchDir> scratch;
  std::string dir;
};

// --report: every chart as SVG into one HTML page, or (-T pdf) one PDF.
void DrawReport(const PlotArgs& args, const RecordingInfo& info, const PlotData& data,
                const std::string& summary, const std::vector<ChartScript>& charts,
                const Work& work, const std::string& gnuplot) {
  std::string report = args.prefix + "report." + (args.type == ChartType::kPdf ? "pdf" : "html");
  if (args.type == ChartType::kPdf) {
    std::string script = args.prefix + "report.gp";
    WriteFile(work.dir + "/" + script,
              ReportPdfScript(charts, args.save ? report : work.out_dir + "/" + report));
    if (args.save) Wrote(args.output_dir, script);
    RunGnuplot(gnuplot, work.dir, "./" + script, kGnuplotTimeout);
  } else {
    std::vector<ReportChart> drawn;
    for (const ChartScript& chart : charts) {
      RunGnuplot(gnuplot, work.dir, "./" + args.prefix + chart.name + ".gp", kGnuplotTimeout);
      std::string file = args.prefix + chart.name + ".svg";
      drawn.push_back({chart.title, RetitleSvgFile(work.dir + "/" + file, chart.title)});
      if (args.save) Wrote(args.output_dir, file);
    }
    WriteFile(work.out_dir + "/" + report, ReportHtml(info, data, summary, drawn));
  }
  Wrote(args.output_dir, report);
}

// Data files and scripts into DIR (--save) or a scratch directory, then
// one gnuplot run per chart (or the report).
void DrawCharts(const PlotArgs& args, const RecordingInfo& info, const PlotData& data,
                const std::string& summary) {
  Work work;
  work.out_dir = AbsolutePath(args.output_dir);
  if (!args.save) work.scratch.emplace();
  work.dir = args.save ? work.out_dir : work.scratch->path();
  // Saved scripts name their charts relative to their own directory, so
  // `gnuplot cpu.gp` there draws again; a report's charts are drawn where
  // the scripts are. Made first: a name gnuplot cannot open is refused
  // before anything is created.
  std::string charts_at = args.save ? "" : (args.report ? work.dir : work.out_dir) + "/";
  ChartSetup setup = SetupFor(args, info, data, charts_at + args.prefix);
  std::vector<ChartScript> charts = MakeChartScripts(data, setup);
  MakeDirectories(args.output_dir);
  WriteInputs(work.dir, args.prefix, data, charts, args.save ? &args.output_dir : nullptr);
  std::string gnuplot = GnuplotOrThrow(
      args, args.save ? " (the data files and scripts are in " + work.out_dir + ")" : "");
  if (args.report) return DrawReport(args, info, data, summary, charts, work, gnuplot);
  // "./": a script name is never taken for an option or a '<cmd' pipe.
  for (const ChartScript& chart : charts) {
    RunGnuplot(gnuplot, work.dir, "./" + args.prefix + chart.name + ".gp", kGnuplotTimeout);
    std::string file = args.prefix + chart.name + "." + ChartExtension(args.type);
    if (args.type == ChartType::kSvg) RetitleSvgFile(work.out_dir + "/" + file, chart.title);
    Wrote(args.output_dir, file);
  }
}

int Plot(const PlotArgs& args) {
  RecordingInput input(args.file, {.window = args.window});
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
  if (args.report) walked.stats.emplace(false, stats_options);
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
             args.report ? SummaryOf(args, input, walked) : std::string());
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
      std::fprintf(stderr, "perfmonger plot: error: %s\n", e.what());
      return 1;
    }
  });
}

}  // namespace pm
