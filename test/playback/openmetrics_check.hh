// A reader of the export's OpenMetrics text for tests: the samples per
// series, and the structural rules of the format checked on the way (one
// `# TYPE` per family, each family and each series in one piece, sample
// names matching their family, timestamps increasing within a series,
// `# EOF` last).
#pragma once

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace pm::test {

struct Point {
  std::string value, ts;
};

struct Exposition {
  std::vector<std::string> families;               // in `# TYPE` order
  std::map<std::string, std::string> types;        // family -> type
  std::map<std::string, std::vector<Point>> series;  // `name{labels}` -> points
  std::vector<std::string> errors;                 // broken rules, empty when sound
};

inline Exposition ParseExposition(const std::string& text) {
  Exposition e;
  std::istringstream in(text);
  std::string line, family, last_series;
  std::set<std::string> done_series;
  bool eof = false;
  while (std::getline(in, line)) {
    if (eof) e.errors.push_back("text after # EOF: " + line);
    if (line == "# EOF") { eof = true; continue; }
    if (line.rfind("# TYPE ", 0) == 0) {
      std::istringstream f(line.substr(7));
      std::string type;
      f >> family >> type;
      if (e.types.count(family)) e.errors.push_back("family twice: " + family);
      e.types[family] = type;
      e.families.push_back(family);
      continue;
    }
    if (line.rfind("#", 0) == 0) continue;
    size_t ts_at = line.rfind(' '), value_at = line.rfind(' ', ts_at - 1);
    std::string series = line.substr(0, value_at);
    std::string name = series.substr(0, series.find('{'));
    std::string want = e.types[family] == "counter" ? family + "_total" : family;
    if (name != want) e.errors.push_back("sample " + name + " in family " + family);
    if (series != last_series && done_series.count(series))
      e.errors.push_back("series split: " + series);
    if (series != last_series) done_series.insert(last_series);
    last_series = series;
    std::vector<Point>& points = e.series[series];
    Point p{line.substr(value_at + 1, ts_at - value_at - 1), line.substr(ts_at + 1)};
    if (!points.empty() && std::stod(p.ts) <= std::stod(points.back().ts))
      e.errors.push_back("time not increasing: " + line);
    points.push_back(p);
  }
  if (!eof) e.errors.push_back("no # EOF");
  return e;
}

}  // namespace pm::test
