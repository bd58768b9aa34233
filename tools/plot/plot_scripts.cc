#include "tools/plot/plot_scripts.hh"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <iterator>
#include <string_view>

#include "common/error.hh"
#include <span>

#include "playback/reports/reports.hh"

namespace pm {
namespace gp {
namespace {

bool IsControl(unsigned char c) { return c < 0x20 || c == 0x7f; }

// The length of the UTF-8 sequence at `s[i]` (RFC 3629: no overlong form,
// surrogate or code point past U+10FFFF; U+FFFE and U+FFFF, which XML
// refuses, neither), or 0.
size_t Utf8Length(const std::string& s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  uint32_t cp = n == 1 ? c : c & (0x7fu >> n);
  for (size_t k = 1; k < n; ++k) {
    auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc >> 6) != 2) return 0;
    cp = cp << 6 | (cc & 0x3fu);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
      cp == 0xfffe || cp == 0xffff)
    return 0;
  return n;
}

// `text` (no control byte) as a gnuplot string expression: '...' pieces,
// and the constant "'" for each quote, joined by '.'. Not '' inside '...':
// gnuplot's scanner ends the string at a '' that comes first or after
// another quote.
std::string Verbatim(std::string_view text) {
  std::string out;
  auto join = [&out](std::string_view open, std::string_view piece, std::string_view close) {
    if (!out.empty()) out.append(" . ");
    out.append(open).append(piece).append(close);
  };
  size_t begin = 0;
  for (size_t quote; (quote = text.find('\'', begin)) != text.npos; begin = quote + 1) {
    if (quote > begin) join("'", text.substr(begin, quote - begin), "'");
    join("\"", "'", "\"");
  }
  if (begin < text.size() || out.empty()) join("'", text.substr(begin), "'");
  return out;
}

std::string Terminal(ChartType type) {
  switch (type) {
    case ChartType::kPng:
      return "set terminal pngcairo size 1280,800 font 'Sans,10' background '#ffffff'\n";
    case ChartType::kSvg:
      return "set terminal svg size 1280,800 dynamic font 'Sans,10' background '#ffffff'\n";
    case ChartType::kPdf: break;
  }
  return "set terminal pdfcairo size 10in,6.25in font 'Sans,9'\n";
}

}  // namespace

std::string Shown(const std::string& text) {
  std::string shown;
  for (size_t i = 0; i < text.size();) {
    size_t n = Utf8Length(text, i);
    bool c1 = n == 2 && static_cast<unsigned char>(text[i]) == 0xC2 &&
              static_cast<unsigned char>(text[i + 1]) < 0xA0;  // U+0080-U+009F
    bool bad = n == 0 || c1 || (n == 1 && IsControl(static_cast<unsigned char>(text[i])));
    shown.append(bad ? std::string_view("?") : std::string_view(text).substr(i, n));
    i += bad ? 1 : n;
  }
  return shown;
}

std::string Quote(const std::string& text) { return Verbatim(Shown(text)); }

std::string QuoteLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += (out.empty() ? "" : " . \"\\n\" . ") + Quote(line);
  return out.empty() ? "''" : out;
}

std::string Path(const std::string& path) {
  for (char c : path)
    if (IsControl(static_cast<unsigned char>(c)))
      throw UsageError("-p: the file names would hold a control character, "
                       "which gnuplot cannot open; choose another prefix");
  return Verbatim(path.starts_with('/') ? path : "./" + path);
}

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

std::string Drawn(std::string_view expr, std::string_view measured) {
  if (measured.empty()) return std::string(expr);
  return "(" + std::string(measured) + ") == 0 ? NaN : (" + std::string(expr) + ")";
}

std::string X(const ChartSetup& setup) {
  return setup.wall_clock > 0 ? "($1+" + Number(setup.wall_clock) + ")" : "1";
}

std::string At(const ChartSetup& setup, double elapsed) {
  return Number(elapsed + setup.wall_clock);
}

std::string XLabel(const ChartSetup& setup) {
  return setup.wall_clock > 0 ? "time (UTC)" : "elapsed time (s)";
}

std::string XFormat(const ChartSetup& setup, bool shown) {
  if (!shown) return "set format x ''\n";
  if (setup.wall_clock <= 0) return "set format x '%g'\n";
  return setup.clock_tenths ? "set format x '%H:%M:%.1S' timedate\n"
                            : "set format x '%H:%M:%S' timedate\n";
}

std::string Title(const std::string& title, const ChartSetup& setup) {
  return QuoteLines({title, setup.subtitle});
}

double End(const PlotData& data, const ChartSetup& setup) {
  double end = std::max(data.end(), setup.offset_time + 1e-3);
  for (const PlotMark& m : data.marks()) end = std::max(end, m.elapsed);
  return end;
}

// Terminal, output, titles, the time axis.
std::string Preamble(const PlotData& data, const ChartSetup& setup,
                     const std::string& name, const std::string& title) {
  std::string s = "# perfmonger plot: " + name + "\n" + Terminal(setup.type);
  s += "set output " + Path(setup.output_prefix + name + "." + ChartExtension(setup.type)) + "\n";
  s += "set title " + Title(title, setup) + " noenhanced\n";
  s += "set xlabel '" + XLabel(setup) + "'\n" + XFormat(setup, true);
  s += "set xrange [" + At(setup, setup.offset_time) + ":" + At(setup, End(data, setup)) + "]\n";
  s += "set grid lc rgb '#d0d0d0'\nset border lc rgb '#606060'\n";
  s += "set style fill solid 1.0 noborder\n";
  return s;
}

namespace {

// Mark labels, written down along their lines: one closer to the last
// label at the top than 2 % of the time axis (a label's width) goes half
// way down instead, and one close to both is left out (its line stays).
std::string MarkLabels(const PlotData& data, const ChartSetup& setup) {
  const double gap = 0.02 * (End(data, setup) - setup.offset_time);
  constexpr const char* kHeights[] = {"0.98", "0.48"};
  double last[] = {-HUGE_VAL, -HUGE_VAL};
  std::string s;
  for (const PlotMark& m : data.marks())
    for (size_t h = 0; h < std::size(kHeights); ++h) {
      if (m.elapsed - last[h] < gap) continue;
      last[h] = m.elapsed;
      s += "set label " + Quote(m.label) + " at " + At(setup, m.elapsed) + ", graph " +
           kHeights[h] + " rotate by 90 right offset 1,0 front boxed tc rgb '#c00000' noenhanced\n";
      break;
    }
  return s;
}

}  // namespace

// Pauses as grey bands behind the data (the lines break there: no pair
// spans a pause), marks as red dashed lines, labelled along the top.
std::string Events(const PlotData& data, const ChartSetup& setup, bool labels) {
  std::string s = "set style textbox opaque noborder\n";
  int n = 1;
  for (const PlotSpan& p : data.pauses()) {
    s += "set object " + std::to_string(n++) + " rect from " + At(setup, p.from) +
         ", graph 0 to " + At(setup, p.to) +
         ", graph 1 behind fc rgb '#e4e4e4' fs solid 1.0 noborder\n";
    if (labels)
      s += "set label 'paused' at " + At(setup, (p.from + p.to) / 2) +
           ", graph 0.5 center tc rgb '#808080'\n";
  }
  for (const PlotMark& m : data.marks())
    s += "set arrow from " + At(setup, m.elapsed) + ", graph 0 to " + At(setup, m.elapsed) +
         ", graph 1 nohead front lc rgb '#c00000' lw 1.5 dt 2\n";
  return labels ? s + MarkLabels(data, setup) : s;
}

// A legend beside the plot (a chart of lines folds its quietest blocks to
// keep it short). Fixed margins keep the time axes of all single charts
// aligned.
std::string Key() {
  return "set lmargin at screen 0.07\nset rmargin at screen 0.84\n"
         "set key outside right top vertical noenhanced\n";
}

}  // namespace gp

std::string Subtitle(const RecordingInfo& info) {
  std::string s = "host " + (info.host.empty() ? std::string("?") : info.host);
  if (info.start_ns != 0) {
    time_t t = static_cast<time_t>(info.start_ns / 1000000000);
    struct tm tm;
    char buf[64];
    if (gmtime_r(&t, &tm) && strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm))
      s += std::string(", started ") + buf;
  }
  for (const auto& [key, value] : info.meta) s += ", " + key + "=" + value;
  if (s.size() > 200) s = s.substr(0, 197) + "...";
  return s;
}

namespace {

// The y axis' top: "*" (automatic), or the spec's, times the strips.
std::string YMax(const ChartInput& chart) {
  const ChartSpec& spec = chart.spec;
  if (spec.ymax <= 0) return "*";
  double strips = chart.blocks.size() > 1 ? static_cast<double>(chart.blocks.size() - 1) : 1.0;
  double top = spec.ymax * (spec.ymax_per_strip ? strips : 1.0);
  return top == std::floor(top) ? std::to_string(static_cast<long long>(top)) : gp::Number(top);
}

std::string StackPlot(const ChartSetup& setup, const ChartInput& chart,
                      size_t index, bool titles) {
  std::string s = "plot ";
  std::string source = gp::Path(chart.file) + " index " + std::to_string(index);
  for (const ChartLayer& l : chart.spec.layers) {
    if (&l != chart.spec.layers.data()) s += ", \\\n     ";
    s += source + " using " + gp::X(setup) + ":(" + gp::Drawn(l.expr, chart.spec.measured) +
         ") with filledcurves x1 lc rgb " +
         gp::Quote(std::string(l.colour)) + " ";
    s += titles ? "title " + gp::Quote(std::string(l.title)) : std::string("notitle");
  }
  return s + "\n";
}

// The file's first block, its layers stacked, a legend beside it.
std::string StackScript(const PlotData& data, const ChartSetup& setup, const ChartInput& chart) {
  const ChartSpec& spec = chart.spec;
  std::string s = gp::Preamble(data, setup, std::string(spec.name), std::string(spec.title));
  s += gp::Events(data, setup, true);
  s += "set ylabel " + gp::Quote(std::string(spec.ylabel)) + "\n";
  s += "set yrange [0:" + YMax(chart) + "]\n";
  s += gp::Key();
  return s + StackPlot(setup, chart, 0, true);
}

// The strips' legend: one row under the title, bottom layer first, drawn
// with the first strip (a key would wrap inside one narrow strip).
std::string LegendRow(std::span<const ChartLayer> layers, const ChartSetup& setup) {
  std::string s;
  int id = 9001;
  double x = 0.2;
  for (auto l = layers.rbegin(); l != layers.rend(); ++l, ++id, x += 0.1) {
    s += "set object " + std::to_string(id) + " rect from screen " + gp::Number(x) +
         ", screen 0.893 to screen " + gp::Number(x + 0.02) + ", screen 0.907 fc rgb " +
         gp::Quote(std::string(l->colour)) + " fs solid 1.0 noborder front\n";
    s += "set label " + std::to_string(id) + " " + gp::Quote(std::string(l->title)) +
         " at screen " + gp::Number(x + 0.025) + ", screen 0.9 left font ',9'\n";
  }
  return s + "set label 9100 '" + gp::XLabel(setup) + "' at screen 0.5, screen 0.015 center\n";
}

std::string UnsetLegendRow(size_t layers) {
  std::string s = "unset label 9100\n";
  for (int id = 9001; id < 9001 + static_cast<int>(layers); ++id)
    s += "unset object " + std::to_string(id) + "\nunset label " + std::to_string(id) + "\n";
  return s;
}

// Tick labels on the grid's outer edges only (bottom row, left column),
// so that many small strips keep their room for data.
std::string StripAxes(int i, int n, int rows, const ChartSetup& setup) {
  bool bottom = i % rows == rows - 1 || i == n - 1;
  bool left = i < rows;
  return gp::XFormat(setup, bottom) +
         (left ? "set format y '%g'\n" : "set format y ''\n");
}

// One strip per block after the first, in a grid: up to 8 in one column,
// then more columns.
std::string StripsScript(const PlotData& data, const ChartSetup& setup, const ChartInput& chart) {
  const ChartSpec& spec = chart.spec;
  const int n = static_cast<int>(chart.blocks.size()) - 1;
  int cols = n <= 8 ? 1 : static_cast<int>(std::ceil(std::sqrt(n / 2.0)));
  int rows = (n + cols - 1) / cols;
  std::string title(spec.title);
  std::string s = gp::Preamble(data, setup, std::string(spec.name), title);
  s += gp::Events(data, setup, false);
  s += "set yrange [0:" + YMax(chart) + "]\nset xtics font ',8'\n";
  s += rows <= 4 ? "set ytics 0,50,100 font ',8'\n" : "set ytics 0,100,100 font ',7'\n";
  s += "unset xlabel\nunset title\n";
  s += "set multiplot layout " + std::to_string(rows) + "," + std::to_string(cols) +
       " columnsfirst title " + gp::Title(title, setup) +
       " noenhanced margins 0.05,0.98,0.07,0.86 spacing 0.015," +
       (rows <= 4 ? "0.05" : "0.008") + "\n";
  for (int i = 0; i < n; ++i) {
    if (i == 0) s += "unset key\n" + LegendRow(spec.layers, setup);
    if (i == 1) s += UnsetLegendRow(spec.layers.size());
    s += StripAxes(i, n, rows, setup);
    s += "set label 99 " +
         gp::Quote(std::string(spec.strip_label) + " " + chart.blocks[static_cast<size_t>(i) + 1]) +
         " at graph 0.01, graph 0.85 left front boxed font ',7' tc rgb '#000000'\n";
    s += StackPlot(setup, chart, static_cast<size_t>(i) + 1, false);
  }
  return s + "unset multiplot\n";
}

std::string ChartScriptOf(const PlotData& data, const ChartSetup& setup, const ChartInput& chart,
                          std::vector<DataFile>& files) {
  switch (chart.spec.kind) {
    case ChartKind::kStack: return StackScript(data, setup, chart);
    case ChartKind::kStrips:
      return chart.blocks.size() > 1 ? StripsScript(data, setup, chart) : std::string();
    case ChartKind::kLines: return LinesScript(data, setup, chart, files);
  }
  return {};
}

}  // namespace

std::vector<ChartScript> MakeChartScripts(const PlotData& data, const ChartSetup& setup) {
  std::vector<ChartScript> charts;
  for (size_t r = 0; r < Reports().size(); ++r) {
    const PlotSlot* slot = PlotSlotOf(r);
    if (slot == nullptr) continue;
    for (const ChartSpec& spec : slot->charts) {
      ChartInput chart{spec, setup.data_prefix + std::string(slot->files[spec.file].name),
                       data.Blocks(r, spec.file), data.BlockTexts(r, spec.file)};
      if (chart.blocks.empty()) continue;
      std::vector<DataFile> files;
      std::string script = ChartScriptOf(data, setup, chart, files);
      if (script.empty()) continue;
      charts.push_back({std::string(spec.name), std::move(script),
                        std::string(spec.title) + " \u2014 " + setup.subtitle,
                        std::move(files)});
    }
  }
  return charts;
}

}  // namespace pm
