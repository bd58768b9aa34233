// Charts of lines: one per block of a data file (a disk, an interface, a
// process, a cgroup) and line of the spec (reads solid, writes dashed),
// each its own colour, a "total" block in black, lines of a second unit
// on the right-hand axis. Blocks idle over the
// whole window are left out (--all-devices keeps them); past the legend
// threshold the busiest keep their lines and the rest are summed into one
// grey "others" series; notes under the chart name both.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include "tools/plot/plot_scripts.hh"
#include "tools/plot/plot_series.hh"

namespace pm {
namespace {

constexpr int kTotalColour = -1, kOthersColour = -2;

struct Line {
  std::string title;
  std::string file;
  size_t index;  // the block's in `file`
  std::string expr;
  int colour;    // kTotalColour, kOthersColour or the series' rank
  bool dashed;
  bool y2;       // on the right-hand axis
  const BlockRows* rows;  // its points
};

struct Block {
  size_t index;
  double volume = 0;
  bool idle = true;
};

bool Drawn(const ChartLine& line, const ChartSpec& spec, const DiskDirections& directions) {
  if (!spec.directional) return true;
  if (line.direction == Direction::kRead) return directions.read;
  if (line.direction == Direction::kWrite) return directions.write;
  return true;
}

std::string Titled(const std::string& block, const ChartLine& l) {
  return l.word.empty() ? block : block + " " + std::string(l.word);
}

// What the chart draws: its blocks kept (busiest first when some are
// folded), the total, the others; and the notes naming what is not drawn.
struct Selection {
  std::vector<const ChartLine*> lines;
  std::vector<size_t> kept;
  size_t total = static_cast<size_t>(-1);
  std::vector<size_t> others, idle;
};

Selection Select(const ChartInput& chart, const ChartSetup& setup,
                 const std::vector<BlockRows>& rows) {
  Selection sel;
  for (const ChartLine& l : chart.spec.lines)
    if (Drawn(l, chart.spec, setup.directions)) sel.lines.push_back(&l);
  std::vector<Block> blocks;
  for (size_t i = 0; i < chart.blocks.size(); ++i) {
    if (chart.blocks[i] == "total") {
      sel.total = i;
      continue;
    }
    Block b{i};
    for (const ChartLine* l : sel.lines) {
      SeriesStats s = Measure(rows[i], l->expr);
      b.volume += s.volume;
      b.idle = b.idle && s.volume == 0;
    }
    if (b.idle && !setup.all_devices) sel.idle.push_back(i);
    else blocks.push_back(b);
  }
  if (blocks.empty()) {  // all idle: drawn, flat, rather than a chart gone
    for (size_t i : sel.idle) blocks.push_back({i});
    sel.idle.clear();
  }
  const size_t per_block = sel.lines.size();
  if (chart.spec.total != TotalLine::kWhenSeveral || blocks.size() < 2)
    sel.total = static_cast<size_t>(-1);
  size_t fixed = sel.total < chart.blocks.size() ? per_block : 0;
  size_t limit = static_cast<size_t>(setup.numkey_threshold);
  if (per_block > 0 && blocks.size() * per_block + fixed > limit && blocks.size() > 1) {
    std::stable_sort(blocks.begin(), blocks.end(),
                     [](const Block& a, const Block& b) { return a.volume > b.volume; });
    size_t room = limit > fixed + per_block ? (limit - fixed - per_block) / per_block : 0;
    size_t keep = std::clamp<size_t>(room, 1, blocks.size() - 1);
    for (size_t k = keep; k < blocks.size(); ++k) sel.others.push_back(blocks[k].index);
    blocks.resize(keep);
  }
  for (const Block& b : blocks) sel.kept.push_back(b.index);
  return sel;
}

std::vector<Line> Lines(const ChartInput& chart, const Selection& sel,
                        const std::vector<BlockRows>& rows, const std::string& others_file,
                        const BlockRows& others) {
  std::vector<Line> lines;
  int rank = 0;  // each block's series its own colour
  auto add = [&](const std::string& name, const std::string& file, size_t index, int colour,
                 bool own_columns) {
    const BlockRows* points = own_columns ? &rows[index] : &others;
    for (size_t k = 0; k < sel.lines.size(); ++k) {
      const ChartLine& l = *sel.lines[k];
      // The others' file has one column per line, after the time.
      std::string expr = own_columns ? std::string(l.expr) : std::string("$");
      if (!own_columns) expr += std::to_string(k + 2);
      int c = colour < 0 ? colour : rank++;
      lines.push_back({Titled(name, l), file, index, expr, c, l.dashed, l.y2, points});
    }
  };
  for (size_t k = 0; k < sel.kept.size(); ++k)
    add(chart.blocks[sel.kept[k]], chart.file, sel.kept[k], 0, true);
  if (!sel.others.empty()) add("others", others_file, 0, kOthersColour, false);
  if (sel.total < chart.blocks.size())
    add("total", chart.file, sel.total, kTotalColour, true);
  return lines;
}

// Colours told apart on screen and paper, none black or grey (the total's
// and the others'); past them the colours come round again with other
// dash patterns, so no two series of a chart look the same.
constexpr std::string_view kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                         "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#000080"};
constexpr int kColours = static_cast<int>(std::size(kPalette));

std::string Style(int colour, bool dashed) {
  std::string dash = dashed ? " dt 2" : " dt 1";
  if (colour == kTotalColour) return " lw 2.5 lc rgb '#000000'" + dash;
  if (colour == kOthersColour) return " lw 2 lc rgb '#909090'" + dash;
  // Past the palette, the dash tells the colour's series apart: dotted,
  // dash-dot, dash-dot-dot, then longer dashes.
  int round = colour / kColours;
  if (round > 0 && round <= 3) dash = " dt " + std::to_string(round + 2);
  if (round > 3) dash = " dt (" + std::to_string(2 * round) + ",4)";
  return " lw 1.5 lc rgb '" + std::string(kPalette[colour % kColours]) + "'" + dash;
}

std::string PlotCommand(const ChartSetup& setup,
                        const std::vector<Line>& lines) {
  std::string s = "plot ";
  for (size_t i = 0; i < lines.size(); ++i) {
    const Line& l = lines[i];
    if (i) s += ", \\\n     ";
    s += gp::Path(l.file) + " index " + std::to_string(l.index) + " using " + gp::X(setup) +
         ":(" + gp::Drawn(l.expr) + ")" + (l.y2 ? " axes x1y2" : "") + " with lines" +
         Style(l.colour, l.dashed);
    s += " title " + gp::Quote(l.title);
  }
  return s + "\n";
}

// A throughput chart's lines scaled to the unit its peak calls for; its
// axis label with that unit.
std::string ScaleThroughput(const ChartSpec& spec, const ChartSetup& setup,
                            std::vector<Line>& lines) {
  if (spec.bytes_per_unit <= 0) return std::string(spec.ylabel);
  double peak = 0;
  for (const Line& l : lines) peak = std::max(peak, Measure(*l.rows, l.expr).peak);
  AxisUnit unit = ThroughputUnit(peak, spec.bytes_per_unit, setup.bits && spec.network);
  char factor[32];
  std::snprintf(factor, sizeof factor, "%.10g", unit.factor);
  for (Line& l : lines) l.expr = "(" + l.expr + ")*" + factor;
  return std::string(spec.ylabel) + " (" + unit.name + ")";
}

// "WHAT: a, b, c", cut to fit under the chart.
std::string NoteOf(const char* what, const ChartInput& chart, const std::vector<size_t>& blocks) {
  std::string names;
  for (size_t i : blocks) names += (names.empty() ? "" : ", ") + chart.blocks[i];
  std::string note = what + names;
  return note.size() > 230 ? note.substr(0, 227) + "..." : note;
}

// The notes below the time axis, one line each.
std::string Notes(const ChartInput& chart, const Selection& sel) {
  std::vector<std::string> notes;
  if (!sel.others.empty()) notes.push_back(NoteOf("others: ", chart, sel.others));
  if (!sel.idle.empty()) notes.push_back(NoteOf("idle, not drawn: ", chart, sel.idle));
  if (notes.empty()) return {};
  return "set bmargin at screen 0.13\nset label 9200 " + gp::QuoteLines(notes) +
         " at screen 0.07, screen 0.045 left font ',8' tc rgb '#505050' noenhanced\n";
}

// The y axis' top: --plot-iops-max, the spec's, or automatic; 1 when no
// line has a point (disk-await of disks that did no I/O: gnuplot cannot
// scale an axis to nothing).
std::string YTop(const ChartSpec& spec, const ChartSetup& setup, const std::vector<Line>& lines) {
  if (spec.iops_axis && setup.iops_max > 0) return gp::Number(setup.iops_max);
  if (spec.ymax > 0) return gp::Number(spec.ymax);
  for (const Line& l : lines)
    if (!l.y2 && Measure(*l.rows, l.expr).defined > 0) return "*";
  return "1";
}

// The right-hand axis, for the lines of the spec's second unit.
std::string RightAxis(const ChartSpec& spec, const std::vector<Line>& lines) {
  if (std::none_of(lines.begin(), lines.end(), [](const Line& l) { return l.y2; })) return {};
  return "set ytics nomirror\nset y2tics\nset y2range [0:*]\nset y2label " +
         gp::Quote(std::string(spec.y2label)) + "\n";
}

}  // namespace

std::string LinesScript(const PlotData& data, const ChartSetup& setup, const ChartInput& chart,
                        std::vector<DataFile>& files) {
  const ChartSpec& spec = chart.spec;
  std::vector<BlockRows> rows;
  for (const std::string& text : chart.texts) rows.push_back(ParseBlock(text));
  Selection sel = Select(chart, setup, rows);
  std::string others_name = std::string(spec.name) + "-others.dat";
  BlockRows others;
  if (!sel.others.empty()) {
    std::vector<const BlockRows*> folded;
    for (size_t i : sel.others) folded.push_back(&rows[i]);
    std::vector<std::string_view> exprs;
    for (const ChartLine* l : sel.lines) exprs.push_back(l->expr);
    files.push_back({others_name, OthersFile(folded, exprs)});
    others = ParseBlock(files.back().text);
  }
  std::vector<Line> lines = Lines(chart, sel, rows, setup.data_prefix + others_name, others);
  if (lines.empty()) return {};
  std::string top = YTop(spec, setup, lines);  // before scaling: Measure reads sums only
  std::string ylabel = ScaleThroughput(spec, setup, lines);
  std::string s = gp::Preamble(data, setup, std::string(spec.name), std::string(spec.title));
  s += gp::Events(data, setup, true);
  s += gp::Key();
  s += Notes(chart, sel);
  s += "set ylabel " + gp::Quote(ylabel) + "\n";
  s += "set yrange [0:" + top + "]\n" + RightAxis(spec, lines);
  return s + PlotCommand(setup, lines);
}

}  // namespace pm
