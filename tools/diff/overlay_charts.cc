#include "tools/diff/overlay_charts.hh"

#include <algorithm>
#include <cstdio>
#include <map>

#include "playback/reports/plot_chart.hh"
#include "playback/reports/report.hh"
#include "playback/reports/reports.hh"
#include "tools/plot/plot_scripts.hh"
#include "tools/plot/plot_series.hh"

namespace pm {
namespace {

constexpr const char* kRunColour[] = {"#1f77b4", "#d62728"};
constexpr size_t kMostBlocks = 3;
constexpr int kDashes = 5;  // gnuplot's dt 1 (solid) to 5

// One run's side of a chart: its data file's blocks, as read.
struct ChartRun {
  std::string file;  // with the run's prefix
  std::vector<std::string> blocks;
  std::vector<BlockRows> rows;
};

struct Series {
  std::string title, file;
  std::string expr;      // "$N+$M" (as Measure() reads it), then scaled
  std::string measured;  // the spec's: where it is 0 nothing is drawn
  size_t index = 0;  // the block's in `file`
  int run = 0;
  int dash = 1;
  bool y2 = false;
  const BlockRows* rows = nullptr;
};

ChartRun Read(const OverlayRun& run, size_t report, const PlotSlot& slot, const ChartSpec& spec) {
  ChartRun c{run.prefix + std::string(slot.files[spec.file].name),
             run.data->Blocks(report, spec.file), {}};
  for (const std::string& text : run.data->BlockTexts(report, spec.file))
    c.rows.push_back(ParseBlock(text));
  return c;
}

// The blocks a chart of lines draws: "total" where a run has one, else
// the busiest (by volume, both runs together).
std::vector<std::string> Chosen(const ChartSpec& spec, const ChartRun (&runs)[2]) {
  std::map<std::string, double> volume;
  for (const ChartRun& c : runs)
    for (size_t i = 0; i < c.blocks.size(); ++i) {
      if (c.blocks[i] == "total") return {"total"};
      for (const ChartLine& l : spec.lines) volume[c.blocks[i]] += Measure(c.rows[i], l.expr).volume;
    }
  std::vector<std::pair<std::string, double>> ranked(volume.begin(), volume.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
  std::vector<std::string> out;
  for (size_t i = 0; i < ranked.size() && i < kMostBlocks; ++i) out.push_back(ranked[i].first);
  return out;
}

// "%usr…%steal+guest": the layers a stack's top sums, bottom to top.
std::string StackName(const ChartSpec& spec) {
  return std::string(spec.layers.back().title) + "\u2026" + std::string(spec.layers.front().title);
}

// Each run's lines: its stack's top, or each chosen block's spec lines.
std::vector<Series> SeriesOf(const ChartSpec& spec, const OverlayRun (&runs)[2],
                             const ChartRun (&sides)[2]) {
  std::vector<Series> out;
  const std::vector<std::string> chosen =
      spec.kind == ChartKind::kStack ? std::vector<std::string>() : Chosen(spec, sides);
  for (int r = 0; r < 2; ++r) {
    const ChartRun& c = sides[r];
    int k = 0;
    auto add = [&](size_t index, const std::string& what, std::string_view expr, bool y2) {
      out.push_back({runs[r].name + " \u2014 " + what, c.file, std::string(expr),
                     std::string(spec.measured), index, r, k++ % kDashes + 1, y2,
                     &c.rows[index]});
    };
    if (spec.kind == ChartKind::kStack && !c.blocks.empty())
      add(0, StackName(spec), spec.layers.front().expr, false);
    for (const std::string& block : chosen) {
      auto at = std::find(c.blocks.begin(), c.blocks.end(), block);
      if (at == c.blocks.end()) continue;
      for (const ChartLine& l : spec.lines)
        add(static_cast<size_t>(at - c.blocks.begin()),
            l.word.empty() ? block : block + " " + std::string(l.word), l.expr, l.y2);
    }
  }
  return out;
}

// A run with a single line: titled by the run alone.
void ShortTitles(std::vector<Series>& lines, const OverlayRun (&runs)[2]) {
  for (int r = 0; r < 2; ++r)
    if (std::count_if(lines.begin(), lines.end(), [r](const Series& s) { return s.run == r; }) == 1)
      for (Series& s : lines)
        if (s.run == r) s.title = runs[r].name;
}

// A throughput chart's lines in the unit their peak calls for; the label.
std::string ScaleThroughput(const ChartSpec& spec, std::vector<Series>& lines) {
  if (spec.bytes_per_unit <= 0) return std::string(spec.ylabel);
  double peak = 0;
  for (const Series& s : lines) peak = std::max(peak, Measure(*s.rows, s.expr).peak);
  AxisUnit unit = ThroughputUnit(peak, spec.bytes_per_unit, false);
  char factor[32];
  std::snprintf(factor, sizeof factor, "%.10g", unit.factor);
  for (Series& s : lines) s.expr = "(" + s.expr + ")*" + factor;
  return std::string(spec.ylabel) + " (" + unit.name + ")";
}

// The y axis' top: the spec's or automatic; for a chart of lines 1 when
// nothing is drawn on the left (gnuplot cannot scale an axis to nothing).
// Before scaling: Measure() reads sums of columns only (a stack's layers
// are any expression).
std::string YTop(const ChartSpec& spec, const std::vector<Series>& lines) {
  if (spec.ymax > 0 && !spec.ymax_per_strip) return gp::Number(spec.ymax);
  if (spec.kind == ChartKind::kStack) return "*";
  for (const Series& s : lines)
    if (!s.y2 && Measure(*s.rows, s.expr).defined > 0) return "*";
  return "1";
}

// The y axes: the left one's label and top, the right-hand one.
std::string Axes(const ChartSpec& spec, const std::vector<Series>& lines,
                 const std::string& ylabel, const std::string& top) {
  std::string out = "set ylabel " + gp::Quote(ylabel) + "\nset yrange [0:" + top + "]\n";
  if (std::none_of(lines.begin(), lines.end(), [](const Series& s) { return s.y2; })) return out;
  return out + "set ytics nomirror\nset y2tics\nset y2range [0:*]\nset y2label " +
         gp::Quote(std::string(spec.y2label)) + "\n";
}

// The phases' starts on the shared axis: red dashed lines, labelled.
std::string Marks(const Timeline& timeline) {
  std::string s = "set style textbox opaque noborder\n";
  for (const OverlayMark& m : timeline.marks) {
    const std::string at = gp::Number(m.at);
    s += "set arrow from " + at + ", graph 0 to " + at +
         ", graph 1 nohead front lc rgb '#c00000' lw 1.5 dt 2\n";
    s += "set label " + gp::Quote(m.label) + " at " + at +
         ", graph 0.98 rotate by 90 right offset 1,0 front boxed tc rgb '#c00000' noenhanced\n";
  }
  return s;
}

std::string PlotCommand(const std::vector<Series>& lines) {
  std::string s = "plot ";
  for (size_t i = 0; i < lines.size(); ++i) {
    const Series& l = lines[i];
    if (i) s += ", \\\n     ";
    s += gp::Path(l.file) + " index " + std::to_string(l.index) + " using 1:(" +
         gp::Drawn(l.expr, l.measured) + ")" +
         (l.y2 ? " axes x1y2" : "") + " with lines lw " + (l.run == 0 ? "2" : "1.5") +
         " lc rgb '" + kRunColour[l.run] + "' dt " + std::to_string(l.dash) +
         " title " + gp::Quote(l.title);
  }
  return s + "\n";
}

std::string Script(const ChartSpec& spec, std::vector<Series> lines, const Timeline& timeline,
                   const std::string& subtitle) {
  const std::string name(spec.name);
  const std::string top = YTop(spec, lines);
  const std::string ylabel = ScaleThroughput(spec, lines);
  std::string s = "# perfmonger diff --report: " + name + "\n"
                  "set terminal svg size 1280,800 dynamic font 'Sans,10' background '#ffffff'\n"
                  "set output " + gp::Path(name + ".svg") + "\n"
                  "set title " + gp::QuoteLines({std::string(spec.title), subtitle}) +
                  " noenhanced\nset xlabel 'elapsed time (s)'\nset format x '%g'\n"
                  "set xrange [0:" + gp::Number(std::max(timeline.end, 1e-3)) + "]\n"
                  "set grid lc rgb '#d0d0d0'\nset border lc rgb '#606060'\n";
  s += Marks(timeline) + gp::Key() + Axes(spec, lines, ylabel, top);
  return s + PlotCommand(lines);
}

}  // namespace

std::vector<OverlayScript> MakeOverlayScripts(const OverlayRun (&runs)[2],
                                              const Timeline& timeline,
                                              const std::string& subtitle) {
  std::vector<OverlayScript> out;
  for (size_t r = 0; r < Reports().size(); ++r) {
    const PlotSlot* slot = PlotSlotOf(r);
    if (slot == nullptr) continue;
    for (const ChartSpec& spec : slot->charts) {
      if (spec.kind == ChartKind::kStrips) continue;
      const ChartRun sides[2] = {Read(runs[0], r, *slot, spec), Read(runs[1], r, *slot, spec)};
      std::vector<Series> lines = SeriesOf(spec, runs, sides);
      if (lines.empty()) continue;
      ShortTitles(lines, runs);
      out.push_back({std::string(spec.name), std::string(spec.title) + " \u2014 " + subtitle,
                     Script(spec, std::move(lines), timeline, subtitle)});
    }
  }
  return out;
}

}  // namespace pm
