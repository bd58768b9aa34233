#include "tools/plot/plot_series.hh"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "playback/outputs/plot_data.hh"
#include "proto/text.hh"

namespace pm {
namespace {

std::vector<double> ParseRow(std::string_view line) {
  std::vector<double> row;
  std::string text(line);  // strtod needs a terminator
  const char* p = text.c_str();
  for (;;) {
    char* end = nullptr;
    double v = std::strtod(p, &end);
    if (end == p) break;
    row.push_back(v);
    p = end;
  }
  return row;
}

double Eval(const std::vector<double>& row, const std::vector<size_t>& columns) {
  double v = 0;
  for (size_t c : columns)
    if (c <= row.size()) v += row[c - 1];
  return v;
}

}  // namespace

BlockRows ParseBlock(std::string_view text) {
  BlockRows out;
  bool gap = false;
  for (size_t begin = 0; begin < text.size();) {
    size_t end = text.find('\n', begin);
    if (end == text.npos) end = text.size();
    std::string_view line = text.substr(begin, end - begin);
    begin = end + 1;
    if (line.empty()) {
      gap = !out.rows.empty();
      continue;
    }
    if (line.front() == '#') continue;
    out.rows.push_back(ParseRow(line));
    out.gap_before.push_back(gap);
    gap = false;
  }
  return out;
}

std::vector<size_t> ExprColumns(std::string_view expr) {
  std::vector<size_t> columns;
  for (size_t begin = 0; begin <= expr.size();) {
    size_t plus = expr.find('+', begin);
    std::string_view term = expr.substr(begin, plus == expr.npos ? expr.npos : plus - begin);
    size_t n = 0;
    bool digits = term.size() >= 2 && term[0] == '$';
    for (size_t i = 1; digits && i < term.size(); ++i) {
      digits = term[i] >= '0' && term[i] <= '9';
      n = n * 10 + static_cast<size_t>(term[i] - '0');
    }
    if (!digits || n == 0) throw std::logic_error("chart expression '" + std::string(expr) +
                                                  "': not $N+$M...");
    columns.push_back(n);
    if (plus == expr.npos) break;
    begin = plus + 1;
  }
  return columns;
}

SeriesStats Measure(const BlockRows& block, std::string_view expr) {
  std::vector<size_t> columns = ExprColumns(expr);
  SeriesStats s;
  for (const std::vector<double>& row : block.rows) {
    double v = Eval(row, columns);
    if (std::isnan(v)) continue;  // undefined there (a gap in the chart)
    ++s.defined;
    s.volume += std::fabs(v);
    s.peak = std::max(s.peak, v);
  }
  return s;
}

std::string OthersFile(const std::vector<const BlockRows*>& blocks,
                       const std::vector<std::string_view>& exprs) {
  std::vector<std::vector<size_t>> columns;
  for (std::string_view e : exprs) columns.push_back(ExprColumns(e));
  struct Point {
    std::vector<double> sums;
    bool gap = false;
  };
  std::map<double, Point> points;  // by elapsed time
  for (const BlockRows* b : blocks)
    for (size_t i = 0; i < b->rows.size(); ++i) {
      if (b->rows[i].empty()) continue;
      Point& p = points[b->rows[i][0]];
      p.sums.resize(exprs.size());
      p.gap = p.gap || b->gap_before[i];
      for (size_t k = 0; k < columns.size(); ++k) p.sums[k] += Eval(b->rows[i], columns[k]);
    }
  std::string out = "# elapsed_time";
  for (size_t k = 1; k <= exprs.size(); ++k) out += "\tothers_" + std::to_string(k);
  out += "\n";
  bool first = true;
  for (const auto& [time, p] : points) {
    if (p.gap && !first) out += "\n";
    first = false;
    AppendFixed(out, time, 6);
    for (double v : p.sums) PlotLines::Col(out, v);
    out += "\n";
  }
  return out;
}

AxisUnit ThroughputUnit(double peak, double bytes_per_unit, bool bits) {
  static constexpr const char* kBytes[] = {"B/s", "KiB/s", "MiB/s", "GiB/s"};
  static constexpr const char* kBits[] = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s"};
  const double step = bits ? 1000 : 1024;
  const double per_unit = bytes_per_unit * (bits ? 8 : 1);  // in B/s or bit/s
  double top = peak * per_unit, divisor = 1;
  size_t k = 0;
  for (; k < 3 && top >= divisor * step; ++k) divisor *= step;
  return {bits ? kBits[k] : kBytes[k], per_unit / divisor};
}

}  // namespace pm
