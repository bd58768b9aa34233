// The series of a gnuplot script `plot` wrote, as a reader of the chart
// sees them: for each plot command (a strip of a grid is one), each
// series' title, its look (colour and dash: "lc ... dt ...") and its axis.
// Shared by the script tests (test/tools) and the charts of a real
// recording (test/process).
#pragma once

#include <string>
#include <vector>

namespace pm::test {

struct PlotSeries {
  std::string title;  // "" when notitle
  std::string look;   // from " lc " to the title: colour, width, dash
  bool y2 = false;    // on the right-hand axis
};

inline std::string Between(const std::string& s, const std::string& from, const std::string& to) {
  size_t a = s.find(from);
  if (a == std::string::npos) return {};
  a += from.size();
  size_t b = s.find(to, a);
  return s.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

inline PlotSeries SeriesOf(const std::string& text) {
  PlotSeries p;
  size_t t = text.find(" title '");
  if (t != std::string::npos) p.title = Between(text.substr(t), " title '", "'");
  size_t end = text.find(t != std::string::npos ? " title " : " notitle");
  size_t lc = text.find(" lc ");
  if (lc != std::string::npos) p.look = text.substr(lc, end == std::string::npos ? end : end - lc);
  p.y2 = text.find(" axes x1y2") != std::string::npos;
  return p;
}

// Every plot command of `script`, its series in order.
inline std::vector<std::vector<PlotSeries>> PlotCommands(const std::string& script) {
  std::vector<std::vector<PlotSeries>> commands;
  for (size_t at = script.find("\nplot "); at != std::string::npos;
       at = script.find("\nplot ", at + 1)) {
    std::vector<PlotSeries>& series = commands.emplace_back();
    size_t begin = at + 6;
    for (;;) {
      size_t eol = script.find('\n', begin);
      std::string line = script.substr(begin, eol - begin);
      bool more = line.ends_with(", \\");
      series.push_back(SeriesOf(more ? line.substr(0, line.size() - 3) : line));
      if (!more || eol == std::string::npos) break;
      begin = eol + 1;
    }
  }
  return commands;
}

// The first two series of one plot command that look the same, or "".
inline std::string SameLook(const std::vector<PlotSeries>& series) {
  for (size_t i = 0; i < series.size(); ++i)
    for (size_t j = i + 1; j < series.size(); ++j)
      if (series[i].look == series[j].look)
        return "'" + series[i].title + "' and '" + series[j].title + "':" + series[i].look;
  return {};
}

}  // namespace pm::test
