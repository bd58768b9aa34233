// The disk, memory and network charts' scripts.
#include <algorithm>

#include "tools/plot_scripts.hh"

namespace pm {
namespace {

// One line per (device, direction): reads solid, writes dashed, one colour
// per device; "total" in black when there is more than one device.
struct Line { std::string title; int index; int column; int colour; bool dashed; };

std::string PlotLines(const std::string& file, const std::vector<Line>& lines) {
  std::string s = "plot ";
  for (size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    if (i) s += ", \\\n     ";
    s += gp::Path(file) + " index " + std::to_string(l.index) + " using 1:($" +
         std::to_string(l.column) + ") with lines";
    // gnuplot's 8th default colour is black: seven colours cycle for the
    // devices, black (and thicker) is the total's alone.
    s += l.colour < 0 ? " lw 2.5 lc rgb '#000000'"
                      : " lw 1.5 lc " + std::to_string(l.colour % 7 + 1);
    s += l.dashed ? " dt 2" : " dt 1";
    s += " title " + gp::Quote(l.title);
  }
  return s + "\n";
}

std::vector<Line> DirectedLines(const std::vector<std::string>& names, bool with_total,
                                bool read, bool write, int read_column,
                                const char* read_word, const char* write_word) {
  std::vector<std::string> all = names;
  if (with_total) all.push_back("total");
  std::vector<Line> lines;
  for (size_t i = 0; i < all.size(); ++i) {
    int index = static_cast<int>(i);
    int colour = with_total && i + 1 == all.size() ? -1 : index;
    if (read) lines.push_back({all[i] + " " + read_word, index, read_column, colour, false});
    if (write)
      lines.push_back({all[i] + " " + write_word, index, read_column + 1, colour, true});
  }
  return lines;
}

}  // namespace

std::string DiskScript(const PlotData& data, const ChartSetup& setup, bool iops) {
  const char* name = iops ? "disk-iops" : "disk-transfer";
  std::string s = gp::Preamble(data, setup, name, iops ? "Disk IOPS" : "Disk transfer");
  s += gp::Events(data, true);
  std::vector<std::string> disks = data.disks();
  std::vector<Line> lines =
      DirectedLines(disks, disks.size() > 1, setup.directions.read,
                    setup.directions.write, iops ? 2 : 4, "read", "write");
  s += gp::Key(lines.size(), setup);
  s += iops ? "set ylabel 'IOPS (requests/s)'\n" : "set ylabel 'transfer (MB/s)'\n";
  bool fixed = iops && setup.iops_max > 0;
  s += "set yrange [0:" + (fixed ? gp::Number(setup.iops_max) : std::string("*")) + "]\n";
  return s + PlotLines(setup.data_prefix + "disk.dat", lines);
}

// Memory stacked the way it adds up to MemTotal: used, buffers, page
// cache, reclaimable slab, free (GiB).
std::string MemScript(const PlotData& data, const ChartSetup& setup) {
  struct Layer { const char* title; const char* colour; const char* sum; };
  static constexpr Layer kLayers[] = {
      {"free", "#c7e9c0", "$3+$5+$6+$18+$4"},
      {"reclaimable slab", "#fdd0a2", "$3+$5+$6+$18"},
      {"page cache", "#9ecae1", "$3+$5+$6"},
      {"buffers", "#6baed6", "$3+$5"},
      {"used", "#d62728", "$3"},
  };
  std::string s = gp::Preamble(data, setup, "mem", "Memory");
  s += gp::Events(data, true);
  s += "set ylabel 'memory (GiB)'\nset yrange [0:*]\n" + gp::Key(0, setup);
  std::string file = gp::Path(setup.data_prefix + "mem.dat");
  s += "plot ";
  for (const Layer& l : kLayers) {
    if (&l != kLayers) s += ", \\\n     ";
    s += file + " using 1:((" + l.sum + ")/1048576.0) with filledcurves x1 lc rgb '" +
         l.colour + "' title " + gp::Quote(l.title);
  }
  return s + "\n";
}

// Received solid, sent dashed, one colour per interface (kB/s).
std::string NetScript(const PlotData& data, const ChartSetup& setup) {
  std::string s = gp::Preamble(data, setup, "net", "Network traffic");
  s += gp::Events(data, true);
  std::vector<Line> lines =
      DirectedLines(data.nets(), false, true, true, 2, "received", "sent");
  s += gp::Key(lines.size(), setup);
  s += "set ylabel 'traffic (kB/s)'\nset yrange [0:*]\n";
  return s + PlotLines(setup.data_prefix + "net.dat", lines);
}

}  // namespace pm
