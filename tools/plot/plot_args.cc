#include "tools/plot/plot_args.hh"

#include <charconv>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hh"
#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "playback/reports/report.hh"
#include "playback/reports/reports.hh"
#include "tools/readers/recording_input.hh"
#include "tools/readers/window_args.hh"
#include "tools/duration.hh"

namespace pm {
namespace {

constexpr char kPlotAbout[] =
    R"(Draw a recording's charts with gnuplot, each titled with the recording's
host, start time and metadata. Pauses show as shaded gaps, marks as
labelled vertical lines. FILE '-' is standard input.

Charts (those the recording has data for; NAME.pdf, .png or .svg):
)";

// The about text and every chart of every report, from their specs.
std::string PlotAbout() {
  std::string s = kPlotAbout;
  for (size_t r = 0; r < Reports().size(); ++r) {
    const PlotSlot* slot = PlotSlotOf(r);
    if (slot == nullptr) continue;
    for (const ChartSpec& c : slot->charts) {
      // The title without its "(sar -B)" or "(iostat's %util)": options of
      // other programs are not this one's.
      std::string name(c.name), title(c.title.substr(0, c.title.find(" (")));
      s += "  " + name + std::string(name.size() < 15 ? 15 - name.size() : 1, ' ') + title + "\n";
    }
  }
  return s;
}

constexpr char kPlotFooter[] =
    R"(Exit status: 0 drawn (a truncated recording too, with a warning), 1 usage
error, unreadable input, gnuplot missing or failing, 2 corrupt recording.
)";

constexpr char kSee[] = " (see perfmonger plot --help)";

double NonNegative(const char* name, std::string_view text) {
  double v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < 0)
    throw UsageError(std::string("--") + name + " '" + std::string(text) +
                     "': give a number, 0 or more" + kSee);
  return v;
}

ChartType Type(std::string_view v) {
  if (v == "pdf") return ChartType::kPdf;
  if (v == "png") return ChartType::kPng;
  if (v == "svg") return ChartType::kSvg;
  throw UsageError("--output-type '" + std::string(v) + "': give pdf, png or svg" + kSee);
}

// gnuplot draws in plot's scratch directory: a '/' would take it out.
std::string Prefix(std::string_view v) {
  if (v.find('/') != std::string_view::npos)
    throw UsageError("--prefix '" + std::string(v) + "': a prefix holds no '/'; name the "
                     "directory with -o" + kSee);
  return std::string(v);
}

DiskFilter DiskRegex(std::string_view text) {
  try {
    return DiskFilter(std::string(text));
  } catch (const std::invalid_argument& e) {
    throw UsageError("--disk-only '" + std::string(text) +
                     "': not a regular expression (" + e.what() + ")");
  }
}

double OffsetSeconds(std::string_view arg) {
  std::optional<int64_t> ns = ParseDurationNs(arg);
  if (!ns)
    throw UsageError("--offset-time '" + std::string(arg) +
                     "': give seconds (2.5) or a duration (500ms)" + kSee);
  return static_cast<double>(*ns) / 1e9;
}

int Threshold(std::string_view arg) {
  double n = NonNegative("plot-numkey-threshold", arg);
  if (n != std::floor(n) || n > 1e6)
    throw UsageError("--plot-numkey-threshold '" + std::string(arg) +
                     "': give a whole number" + kSee);
  return static_cast<int>(n);
}

using Opt = Option<PlotArgs>;
using Apply = std::function<void(PlotArgs&, const Given&)>;

Opt PlotOpt(OptionInfo info, Apply apply) {
  return MakeOption<PlotArgs>(std::move(info), std::move(apply));
}

// PerfMonger's three direction flags: the last one given (and not =false) wins.
Opt Direction(std::string_view name, std::string help, DiskDirections directions) {
  return PlotOpt({.name = name, .help = std::move(help)},
                 [directions](PlotArgs& a, const Given& g) {
                   if (g.on) a.directions = directions;
                 });
}

void AddOutputOptions(std::vector<Opt>& t) {
  t.push_back(PlotOpt({.name = "output-dir", .short_name = 'o', .value = "DIR",
                       .help = "write the charts into DIR (created when\n"
                               "missing; default: the current directory)",
                       .brief = "write the charts into DIR (default: .)",
                       .completes = Completes::kDirectory},
                      [](PlotArgs& a, const Given& g) { a.output_dir = g.value; }));
  t.push_back(PlotOpt({.name = "output-type", .short_name = 'T', .value = "TYPE",
                       .help = "pdf (default), png or svg", .choices = "pdf png svg"},
                      [](PlotArgs& a, const Given& g) {
                        a.type = Type(g.value);
                        a.type_given = true;
                      }));
  t.push_back(PlotOpt({.name = "report",
                       .help = "every chart in one file: DIR/PREFIXreport.html, a\n"
                               "self-contained page with the recording's header,\n"
                               "marks and phases, summary --use's table, charts\n"
                               "(the binding resource's first), then the summary\n"
                               "(all-zero rows left out); -T pdf: report.pdf,\n"
                               "a header page, a USE page, then a page per chart",
                       .brief = "every chart in one HTML page (-T pdf: one PDF)"},
                      [](PlotArgs& a, const Given& g) { a.report = g.on; }));
  t.push_back(PlotOpt({.name = "prefix", .short_name = 'p', .value = "PREFIX",
                       .help = "put PREFIX before every file name written"},
                      [](PlotArgs& a, const Given& g) { a.prefix = Prefix(g.value); }));
  t.push_back(PlotOpt({.name = "save", .short_name = 's',
                       .help = "keep the data files (cpu.dat, disk.dat, mem.dat,\n"
                               "net.dat) and gnuplot scripts (*.gp) in DIR; they\n"
                               "are written even when gnuplot is missing",
                       .brief = "keep the data files and gnuplot scripts in DIR"},
                      [](PlotArgs& a, const Given& g) { a.save = g.on; }));
}

// Which part of the recording and which disks and directions are drawn.
void AddChartOptions(std::vector<Opt>& t) {
  t.push_back(PlotOpt({.name = "offset-time", .value = "SEC",
                       .help = "start the time axis SEC seconds into the recording"},
                      [](PlotArgs& a, const Given& g) { a.offset_time = OffsetSeconds(g.value); }));
  t.push_back(PlotOpt({.name = "disk-only", .value = "REGEX",
                       .help = "draw only the disks whose name matches REGEX"},
                      [](PlotArgs& a, const Given& g) {
                        a.disk_only = DiskRegex(g.value);
                        a.disk_only_pattern = g.value;
                      }));
  t.push_back(Direction("plot-read-only", "disk charts: reads only", {true, false}));
  t.push_back(Direction("plot-write-only", "disk charts: writes only", {false, true}));
  t.push_back(Direction("plot-read-write", "disk charts: reads and writes (the default)",
                        {true, true}));
}

// What the charts draw and how their axes read.
void AddAxisOptions(std::vector<Opt>& t) {
  t.push_back(PlotOpt({.name = "all-devices",
                       .help = "also draw the devices, interfaces, processes\n"
                               "and groups that were idle throughout",
                       .brief = "also draw what was idle throughout"},
                      [](PlotArgs& a, const Given& g) { a.all_devices = g.on; }));
  t.push_back(PlotOpt({.name = "wall-clock",
                       .help = "time axis in wall-clock time, UTC (default:\n"
                               "seconds since the recording's start)",
                       .brief = "time axis in wall-clock time (UTC)"},
                      [](PlotArgs& a, const Given& g) { a.wall_clock = g.on; }));
  t.push_back(PlotOpt({.name = "bits",
                       .help = "network charts in bit/s, kbit/s, Mbit/s or Gbit/s\n"
                               "(default: B/s, KiB/s, MiB/s or GiB/s)",
                       .brief = "network charts in bits per second"},
                      [](PlotArgs& a, const Given& g) { a.bits = g.on; }));
  t.push_back(PlotOpt({.name = "plot-numkey-threshold", .value = "N",
                       .help = "a chart of more than N lines draws its busiest\n"
                               "and sums the rest as 'others' (default 10)",
                       .brief = "fold lines past N into 'others' (default 10)"},
                      [](PlotArgs& a, const Given& g) { a.numkey_threshold = Threshold(g.value); }));
  t.push_back(PlotOpt({.name = "plot-iops-max", .value = "IOPS",
                       .help = "top of the disk-iops axis (default: automatic)"},
                      [](PlotArgs& a, const Given& g) {
                        a.iops_max = NonNegative("plot-iops-max", g.value);
                      }));
  t.push_back(PlotOpt({.name = "with-gnuplot", .value = "PATH",
                       .help = "the gnuplot to run (default: gnuplot on PATH;\n"
                               "Debian package gnuplot-nox)",
                       .brief = "the gnuplot to run (default: gnuplot on PATH)",
                       .completes = Completes::kFile},
                      [](PlotArgs& a, const Given& g) { a.gnuplot = g.value; }));
  t.push_back(PlotOpt({.name = "help", .short_name = 'h', .help = "show this help"},
                      [](PlotArgs& a, const Given& g) { a.help = g.on; }));
}

Command<PlotArgs> BuildPlotCommand() {
  static const std::string about = PlotAbout();
  Command<PlotArgs> c{{"plot", "[options] FILE...|DIR", about, kPlotFooter}, {}};
  AddOutputOptions(c.options);
  AddChartOptions(c.options);
  AddAxisOptions(c.options);
  for (Opt& o : WindowOptions(&PlotArgs::window)) c.options.push_back(std::move(o));
  return c;
}

}  // namespace

const Command<PlotArgs>& PlotCommand() {
  static const Command<PlotArgs> command = BuildPlotCommand();
  return command;
}

PlotArgs ParsePlotArgs(int argc, char** argv) {
  PlotArgs a;
  std::vector<std::string> files = PlotCommand().Parse(argc, argv, a);
  if (a.help) return a;
  if (files.empty())
    throw UsageError(std::string("no recording named: give FILE, or '-' for "
                                 "standard input") + kSee);
  CheckJoinable(files, "plot");
  if (a.output_dir.empty()) throw UsageError(std::string("--output-dir: give a directory") + kSee);
  CheckWindow(a.window);
  if (a.report && a.type == ChartType::kPng)
    throw UsageError(std::string("--report: an HTML page (-T svg, or no -T) or a PDF "
                                 "(-T pdf), not PNG") + kSee);
  if (a.report && !a.type_given) a.type = ChartType::kSvg;
  a.file = files[0];
  a.files = files;
  return a;
}

const char* ChartExtension(ChartType type) {
  switch (type) {
    case ChartType::kPng: return "png";
    case ChartType::kSvg: return "svg";
    case ChartType::kPdf: break;
  }
  return "pdf";
}

}  // namespace pm
