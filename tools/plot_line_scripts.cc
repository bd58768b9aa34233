// Charts of lines: one per block of a data file (a disk, an interface, a
// process, a cgroup) and line of the spec (reads solid, writes dashed),
// one colour per block, a "total" block in black.
#include "tools/plot_scripts.hh"

namespace pm {
namespace {

struct Line {
  std::string title;
  size_t index;  // the block's
  std::string_view expr;
  int colour;    // -1: the total's black
  bool dashed;
};

bool Drawn(const ChartLine& line, const ChartSpec& spec, const DiskDirections& directions) {
  if (!spec.directional) return true;
  if (line.direction == Direction::kRead) return directions.read;
  if (line.direction == Direction::kWrite) return directions.write;
  return true;
}

std::vector<Line> Lines(const ChartInput& chart, const ChartSetup& setup) {
  std::vector<size_t> blocks;  // the blocks drawn, the total last
  size_t total = chart.blocks.size();
  for (size_t i = 0; i < chart.blocks.size(); ++i) {
    if (chart.blocks[i] == "total") total = i;
    else blocks.push_back(i);
  }
  bool with_total = chart.spec.total == TotalLine::kWhenSeveral && blocks.size() > 1 &&
                    total < chart.blocks.size();
  if (with_total) blocks.push_back(total);
  std::vector<Line> lines;
  for (size_t k = 0; k < blocks.size(); ++k) {
    int colour = with_total && k + 1 == blocks.size() ? -1 : static_cast<int>(k);
    for (const ChartLine& l : chart.spec.lines)
      if (Drawn(l, chart.spec, setup.directions))
        lines.push_back({l.word.empty() ? chart.blocks[blocks[k]]
                                        : chart.blocks[blocks[k]] + " " + std::string(l.word),
                         blocks[k], l.expr, colour, l.dashed});
  }
  return lines;
}

std::string PlotCommand(const std::string& file, const std::vector<Line>& lines) {
  std::string s = "plot ";
  for (size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    if (i) s += ", \\\n     ";
    s += gp::Path(file) + " index " + std::to_string(l.index) + " using 1:(" +
         std::string(l.expr) + ") with lines";
    // gnuplot's 8th default colour is black: seven colours cycle for the
    // blocks, black (and thicker) is the total's alone.
    s += l.colour < 0 ? " lw 2.5 lc rgb '#000000'"
                      : " lw 1.5 lc " + std::to_string(l.colour % 7 + 1);
    s += l.dashed ? " dt 2" : " dt 1";
    s += " title " + gp::Quote(l.title);
  }
  return s + "\n";
}

}  // namespace

std::string LinesScript(const PlotData& data, const ChartSetup& setup, const ChartInput& chart) {
  const ChartSpec& spec = chart.spec;
  std::vector<Line> lines = Lines(chart, setup);
  if (lines.empty()) return {};
  std::string s = gp::Preamble(data, setup, std::string(spec.name), std::string(spec.title));
  s += gp::Events(data, true);
  s += gp::Key(lines.size(), setup);
  s += "set ylabel " + gp::Quote(std::string(spec.ylabel)) + "\n";
  bool fixed = spec.iops_axis && setup.iops_max > 0;
  std::string top = fixed ? gp::Number(setup.iops_max)
                    : spec.ymax > 0 ? gp::Number(spec.ymax) : std::string("*");
  s += "set yrange [0:" + top + "]\n";
  return s + PlotCommand(chart.file, lines);
}

}  // namespace pm
