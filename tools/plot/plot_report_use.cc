#include "tools/plot/plot_report_use.hh"

#include <algorithm>
#include <array>
#include <string_view>

#include "playback/statistics/use_output.hh"
#include "tools/plot/plot_svg.hh"

namespace pm {
namespace {

struct ResourceCharts {
  std::string_view resource;  // a name, or a prefix ending in ' '
  std::array<std::string_view, 4> charts;
};

constexpr ResourceCharts kCharts[] = {
    {"CPU", {"cpu", "allcpu"}},
    {"CPU busiest core", {"cpu", "allcpu"}},
    {"memory", {"mem"}},
    {"I/O (all disks)", {"disk-util", "disk-await", "disk-iops", "disk-transfer"}},
    {"disk ", {"disk-util", "disk-await", "disk-iops", "disk-transfer"}},
    {"net ", {"net"}},
    {"TCP", {"tcp", "net"}},
    {"cgroup ", {"cgroup-cpu", "cgroup-io"}},
};

// The charts to put first, in order; none for a resource not listed.
std::vector<std::string_view> ChartsOf(const std::string& binding) {
  for (const ResourceCharts& r : kCharts) {
    bool prefix = r.resource.ends_with(' ');
    if (prefix ? binding.starts_with(r.resource) : binding == r.resource) {
      std::vector<std::string_view> out;
      for (std::string_view c : r.charts)
        if (!c.empty()) out.push_back(c);
      return out;
    }
  }
  return {};
}

// The text as lines.
std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  for (size_t begin = 0; begin < text.size();) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    out.push_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

}  // namespace

ReportUse ReportUseOf(const StatsWalk& walk) {
  ReportUse out;
  if (walk.use().empty() || walk.use().front().intervals() == 0) return out;
  AppendUseText(out.block, walk.use().front());
  out.binding = UseBinding(walk.use().front());
  const std::vector<UseSpan>& phases = walk.use_phases();
  if (phases.size() < 2) return out;  // the whole recording's verdict says it
  for (size_t i = 0; i < phases.size() && i < walk.labels().size(); ++i)
    if (phases[i].intervals() > 0) out.phases.emplace_back(walk.labels()[i], UseVerdict(phases[i]));
  return out;
}

void BindingChartsFirst(std::vector<ChartScript>& charts, const std::string& binding) {
  std::vector<std::string_view> first = ChartsOf(binding);
  auto rank = [&](const ChartScript& c) {
    return static_cast<size_t>(std::find(first.begin(), first.end(), c.name) - first.begin());
  };
  std::stable_sort(charts.begin(), charts.end(),
                   [&](const ChartScript& a, const ChartScript& b) { return rank(a) < rank(b); });
}

std::string ReportUseHtml(const ReportUse& use) {
  if (use.block.empty()) return {};
  std::string out = "<h2>USE: utilisation, saturation, errors</h2>\n<pre>";
  for (const std::string& line : Lines(use.block)) out += XmlEscaped(line) + "\n";
  out += "</pre>\n";
  if (use.phases.empty()) return out;
  out += "<table>\n<tr><th>phase</th><th>USE verdict</th></tr>\n";
  for (const auto& [label, verdict] : use.phases)
    out += "<tr><td>" + XmlEscaped(label) + "</td><td>" + XmlEscaped(verdict) + "</td></tr>\n";
  return out + "</table>\n";
}

std::string ReportUsePdfPage(const ReportUse& use) {
  if (use.block.empty()) return {};
  constexpr size_t kLinesShown = 60;  // what a page holds at 8 points
  std::vector<std::string> lines = Lines(use.block);
  if (!use.phases.empty()) lines.insert(lines.end(), {"", "USE verdict per phase:"});
  for (const auto& [label, verdict] : use.phases) lines.push_back("  " + label + ": " + verdict);
  if (lines.size() > kLinesShown) {
    const size_t more = lines.size() - kLinesShown + 1;
    lines.resize(kLinesShown - 1);
    lines.push_back("and " + std::to_string(more) + " more lines (the HTML report has them all)");
  }
  return "unset border\nunset tics\nunset key\nunset grid\nset xrange [0:1]\nset yrange [0:1]\n"
         "set title 'USE: utilisation, saturation, errors' noenhanced\n"
         "set label 1 " + gp::QuoteLines(lines) +
         " at screen 0.03,0.93 left font 'Monospace,8' noenhanced\n"
         "plot 2 notitle\nreset\n";
}

}  // namespace pm
