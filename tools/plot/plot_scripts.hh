// The gnuplot scripts of `plot`: one per chart of each report (its plot
// slot's ChartSpecs, playback/reports/plot_chart.hh), reading the data files of
// playback/outputs/plot_data.hh. Each script is complete (terminal, output, title,
// axes, pauses as shaded gaps, marks as labelled vertical lines), so a
// saved one can be re-run with `gnuplot NAME.gp` in its directory.
//
// Recordings are exchanged between people, and gnuplot runs commands from
// its scripts: `...` inside "..." and anywhere outside strings, '<cmd' as a
// data file, '|cmd' as an output. So every string that is not a constant
// of this code (anything from a recording: host, metadata, device,
// interface, process and cgroup names, mark labels; anything from the
// command line: -p, -o) reaches a script through gp::Quote, gp::QuoteLines
// or gp::Path only, which write single-quoted strings, the one kind
// gnuplot reads verbatim (and the constants "'" and "\n" between them).
// test/fuzz/fuzz_plot_script.cc checks that no byte of such a string lands
// outside one.
#pragma once

#include <string>
#include <vector>

#include "playback/reports/plot_chart.hh"
#include "playback/outputs/plot_data.hh"
#include "tools/plot/plot_args.hh"

namespace pm {

struct ChartSetup {
  ChartType type = ChartType::kPdf;
  std::string subtitle;        // Subtitle(): host, start time, metadata
  std::string data_prefix;     // before "cpu.dat" etc. in the scripts
  std::string output_prefix;   // before "cpu.pdf" etc. in the scripts
  double offset_time = 0;
  DiskDirections directions;
  int numkey_threshold = 10;   // legend entries past which the quietest are folded
  double iops_max = 0;         // 0: automatic
  bool all_devices = false;    // --all-devices: idle blocks drawn too
  bool bits = false;           // --bits: network charts in bit/s
  double wall_clock = 0;       // --wall-clock: the first sample's Unix time; 0: elapsed
  bool clock_tenths = false;   // its ticks in tenths of seconds (a short window)
};

// A data file a chart adds to the report's (its "others" series).
struct DataFile {
  std::string name;  // without the prefix
  std::string text;
};

struct ChartScript {
  std::string name;    // "cpu", "allcpu", "disk-iops", ...: NAME.gp, NAME.EXT
  std::string script;
  std::string title;   // one line: the chart's title and setup.subtitle
  std::vector<DataFile> files;  // its own data files, beside the reports'
};

// "host H, started YYYY-MM-DD HH:MM:SS UTC, key=value, ...": one line of
// at most 200 bytes, under every chart's title.
std::string Subtitle(const RecordingInfo& info);

// The charts the recording has data for, each report's in kCollectors
// order: cpu, allcpu, disk-iops, disk-transfer, net, mem, pressure, ...
std::vector<ChartScript> MakeChartScripts(const PlotData& data, const ChartSetup& setup);

// One chart of a report: its spec, the data file (with the prefix) and
// the names and texts of the file's blocks, in order (gnuplot's indexes).
struct ChartInput {
  const ChartSpec& spec;
  std::string file;
  std::vector<std::string> blocks;
  std::vector<std::string> texts;
};

// The pieces the per-chart builders share (plot_scripts.cc).
namespace gp {
// `text` as a gnuplot string: '...', a quote in it the constant "'"
// joined on with '.' ('it' . "'" . 's'), wherever a string goes. A control
// byte (it would end the command), a C1 control (U+0080-U+009F: a terminal
// would act on it in a message) or a byte that is not UTF-8 (an SVG would
// not parse) becomes '?'. For text shown on a chart.
std::string Quote(const std::string& text);
// `text` with each control character (C0, DEL, C1) and byte that is not
// UTF-8 made '?', as Quote() shows it: for text outside a script (an
// SVG's <title>, a message).
std::string Shown(const std::string& text);
// Lines shown one under another: each Quote()d, joined by the constant
// "\n" (gnuplot has no escapes inside '...').
std::string QuoteLines(const std::vector<std::string>& lines);
// A file name for gnuplot to open, byte for byte: a relative one starts
// with "./" (gnuplot runs '<cmd' and '|cmd'). Throws UsageError for a
// control byte, which no gnuplot string can hold verbatim.
std::string Path(const std::string& path);
// The two title lines: `title`, then setup.subtitle.
std::string Title(const std::string& title, const ChartSetup& setup);
std::string Preamble(const PlotData& data, const ChartSetup& setup,
                     const std::string& name, const std::string& title);
std::string Events(const PlotData& data, const ChartSetup& setup, bool labels);  // pauses, marks
// The time axis: the x of a data line ("1", or with --wall-clock its Unix
// time), of an elapsed time, the axis label and its tick format.
std::string X(const ChartSetup& setup);
std::string At(const ChartSetup& setup, double elapsed);
std::string XLabel(const ChartSetup& setup);
std::string XFormat(const ChartSetup& setup, bool shown);
std::string Number(double v);
// A series' `using` expression (without the parentheses around it):
// `expr`, undefined (not drawn) where `measured`, when given, is 0. A
// value a report left undefined ("nan" in its data file) is not drawn
// either: gnuplot skips it.
std::string Drawn(std::string_view expr, std::string_view measured = {});
std::string Key();
}  // namespace gp

// A chart of lines, one per block and line spec (plot_line_scripts.cc);
// "" when none is to be drawn. The data files it needs of its own are
// added to `files`.
std::string LinesScript(const PlotData& data, const ChartSetup& setup, const ChartInput& chart,
                        std::vector<DataFile>& files);

}  // namespace pm
