#include "tools/diff/overlay_align.hh"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "playback/statistics/diff_table.hh"

namespace pm {
namespace {

double Length(const RunPhases& run, size_t i) {
  return (i + 1 < run.starts.size() ? run.starts[i + 1] : run.end) - run.starts[i];
}

// The phase holding elapsed time `t`: the last that starts at or before it.
size_t PhaseAt(const std::vector<double>& starts, double t) {
  auto after = std::upper_bound(starts.begin(), starts.end(), t);
  return after == starts.begin() ? 0 : static_cast<size_t>(after - starts.begin() - 1);
}

std::string Elapsed(double t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%f", t);
  return buf;
}

// A slot opening at `at`: a mark on the axis (the first slot's is 0: none).
void Open(Timeline& t, double at, const std::string& key) {
  if (at > 0) t.marks.push_back({at, key});
}

}  // namespace

RunPhases PhasesOf(const PlotData& data) {
  std::vector<std::string> labels = {"start"};
  RunPhases out;
  out.starts = {0};
  for (const PlotMark& m : data.marks()) {
    labels.push_back(m.label);
    out.starts.push_back(std::max(m.elapsed, out.starts.back()));
  }
  out.keys = PhaseKeys(labels);
  out.end = std::max(data.end(), out.starts.back());
  return out;
}

Timeline AlignByLabel(const RunPhases& a, const RunPhases& b) {
  Timeline t;
  t.starts[0] = a.starts;
  t.starts[1] = b.starts;
  t.shift[0].assign(a.starts.size(), 0);
  t.shift[1].assign(b.starts.size(), 0);
  std::vector<bool> placed(b.starts.size(), false);
  double at = 0;
  for (size_t i = 0; i < a.starts.size(); ++i) {
    Open(t, at, a.keys[i]);
    t.shift[0][i] = at - a.starts[i];
    double length = Length(a, i);
    auto j = std::find(b.keys.begin(), b.keys.end(), a.keys[i]) - b.keys.begin();
    if (static_cast<size_t>(j) < b.keys.size()) {
      placed[j] = true;
      t.shift[1][j] = at - b.starts[j];
      length = std::max(length, Length(b, j));
    }
    at += length;
  }
  for (size_t j = 0; j < b.starts.size(); ++j) {
    if (placed[j]) continue;
    Open(t, at, b.keys[j] + " (B only)");
    t.shift[1][j] = at - b.starts[j];
    at += Length(b, j);
  }
  t.end = at;
  return t;
}

Timeline AlignByTime(const RunPhases& a, const RunPhases& b) {
  Timeline t;
  t.starts[0] = {0};
  t.starts[1] = {0};
  t.shift[0] = {0};
  t.shift[1] = {0};
  for (size_t i = 1; i < a.starts.size(); ++i) t.marks.push_back({a.starts[i], a.keys[i]});
  t.end = std::max(a.end, b.end);
  return t;
}

std::string Realigned(std::string_view text, const Timeline& timeline, int run) {
  const std::vector<double>& starts = timeline.starts[run];
  std::string out;
  size_t last_phase = 0;
  bool after_row = false;
  for (size_t begin = 0; begin < text.size();) {
    size_t end = std::min(text.find('\n', begin), text.size());
    std::string line(text.substr(begin, end - begin));
    begin = end + 1;
    if (line.empty() || line[0] == '#') {
      out += line + "\n";
      after_row = false;
      continue;
    }
    char* rest = nullptr;
    const double t = std::strtod(line.c_str(), &rest);
    const size_t phase = PhaseAt(starts, t);
    if (after_row && phase != last_phase) out += "\n";
    out += Elapsed(t + timeline.shift[run][phase]) + rest + "\n";
    last_phase = phase;
    after_row = true;
  }
  return out;
}

}  // namespace pm
