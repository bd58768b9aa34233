// The gnuplot scripts of `plot`: one per chart, reading the data files of
// playback/plot_data.hh. Each script is complete (terminal, output, title,
// axes, pauses as shaded gaps, marks as labelled vertical lines), so a
// saved one can be re-run with `gnuplot NAME.gp` in its directory.
#pragma once

#include <string>
#include <vector>

#include "playback/plot_data.hh"
#include "tools/plot_args.hh"

namespace pm {

struct ChartSetup {
  ChartType type = ChartType::kPdf;
  std::string subtitle;        // host, start time, metadata (one line)
  std::string data_prefix;     // before "cpu.dat" etc. in the scripts
  std::string output_prefix;   // before "cpu.pdf" etc. in the scripts
  double offset_time = 0;
  DiskDirections directions;
  int numkey_threshold = 10;
  double iops_max = 0;         // 0: automatic
};

struct ChartScript {
  std::string name;    // "cpu", "allcpu", "disk-iops", ...: NAME.gp, NAME.EXT
  std::string script;
};

// The charts the recording has data for, in a fixed order: cpu, allcpu
// (cpu recorded), disk-iops, disk-transfer (a disk kept), mem, net.
std::vector<ChartScript> MakeChartScripts(const PlotData& data, const ChartSetup& setup);

// The pieces the per-chart builders share (plot_scripts.cc).
namespace gp {
std::string Quote(const std::string& text);       // a '...' gnuplot string
// The two title lines (`title`, then setup.subtitle) as a "..." string.
std::string Title(const std::string& title, const ChartSetup& setup);
std::string Preamble(const PlotData& data, const ChartSetup& setup,
                     const std::string& name, const std::string& title);
std::string Events(const PlotData& data, bool labels);  // pauses and marks
std::string Number(double v);
std::string Key(size_t entries, const ChartSetup& setup);
}  // namespace gp

// Per chart (plot_io_scripts.cc): disks, memory, network.
std::string DiskScript(const PlotData& data, const ChartSetup& setup, bool iops);
std::string MemScript(const PlotData& data, const ChartSetup& setup);
std::string NetScript(const PlotData& data, const ChartSetup& setup);

}  // namespace pm
