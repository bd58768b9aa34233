#include "playback/outputs/table_text.hh"

#include <time.h>

#include <algorithm>
#include <cmath>

#include "playback/reports/table_cells.hh"

namespace pm {
namespace {

constexpr std::string_view kHeadColor = "\033[34m", kLabelColor = "\033[1;4m",
                           kReset = "\033[0m";

// The columns of each group that fit: [group] -> count, the rest none.
std::vector<size_t> Fitting(std::span<const TableGroup> groups, const TableStyle& style) {
  const size_t width = style.width;
  std::vector<size_t> out(groups.size(), 0);
  size_t used = style.time_width();
  for (size_t g = 0; g < groups.size(); ++g) {
    std::span<const LiveColumn> columns = groups[g].slot->columns;
    for (size_t c = 0; c < columns.size(); ++c) {
      size_t need = 1 + static_cast<size_t>(columns[c].width);  // '|' or ' ' before it
      if (width != 0 && used + need > width) return out;
      used += need;
      ++out[g];
    }
  }
  return out;
}

size_t GroupWidth(const TableGroup& g, size_t shown) {
  size_t w = 0;
  for (size_t c = 0; c < shown; ++c) w += static_cast<size_t>(g.slot->columns[c].width) + (c ? 1 : 0);
  return w;
}

// `heading` centred in dashes over `width`. A long one keeps its start
// ("load" over a 1m column alone), a part's its end (a cgroup's path).
void AppendHeading(std::string& out, const TableGroup& g, size_t width) {
  std::string_view heading = g.heading;
  if (heading.size() > width && !g.part.empty()) {
    std::string_view part = heading.substr(heading.find(':') + 1);  // as shown
    heading = part.size() > width ? part.substr(part.size() - width) : part;
  }
  heading = heading.substr(0, width);
  size_t left = (width - heading.size()) / 2;
  out.append(left, '-').append(heading).append(width - heading.size() - left, '-');
}

void Open(std::string& out, std::string_view color, const TableStyle& style) {
  if (style.color && !color.empty()) out.append(color);
}
void Close(std::string& out, std::string_view color, const TableStyle& style) {
  if (style.color && !color.empty()) out.append(kReset);
}

}  // namespace

void AppendTableHeader(std::string& out, std::span<const TableGroup> groups,
                       const TableStyle& style) {
  std::vector<size_t> shown = Fitting(groups, style);
  Open(out, kHeadColor, style);
  const size_t extra = style.time_width() - 8;  // the time's decimals
  out.append("-system-").append(extra, '-');
  for (size_t g = 0; g < groups.size() && shown[g] > 0; ++g) {
    out.push_back(' ');
    AppendHeading(out, groups[g], GroupWidth(groups[g], shown[g]));
  }
  Close(out, kHeadColor, style);
  out.push_back('\n');
  Open(out, kLabelColor, style);
  out.append(extra, ' ').append("  time  ");
  for (size_t g = 0; g < groups.size() && shown[g] > 0; ++g) {
    for (size_t c = 0; c < shown[g]; ++c) {
      const LiveColumn& column = groups[g].slot->columns[c];
      Close(out, kLabelColor, style);
      out.push_back(c == 0 ? '|' : ' ');
      Open(out, kLabelColor, style);
      out.append(static_cast<size_t>(column.width) - column.label.size(), ' ').append(column.label);
    }
  }
  Close(out, kLabelColor, style);
  out.push_back('\n');
}

void AppendTableRow(std::string& out, std::string_view label, std::span<const TableGroup> groups,
                    std::span<const double> values, const TableStyle& style) {
  std::vector<size_t> shown = Fitting(groups, style);
  const size_t time_width = style.time_width();
  out.append(label.substr(0, time_width)).append(time_width - std::min(label.size(), time_width), ' ');
  size_t at = 0;
  std::string cell;
  for (size_t g = 0; g < groups.size(); ++g) {
    std::span<const LiveColumn> columns = groups[g].slot->columns;
    for (size_t c = 0; c < shown[g]; ++c) {
      out.push_back(c == 0 ? '|' : ' ');
      cell.clear();
      std::string_view color = ToneColor(AppendCell(cell, values[at + c], columns[c].unit,
                                                    columns[c].width));
      Open(out, color, style);
      out.append(cell);
      Close(out, color, style);
    }
    at += columns.size();
  }
  out.push_back('\n');
}

size_t TableStyle::time_width() const {
  return 8 + (time_decimals > 0 ? 1 + static_cast<size_t>(time_decimals) : 0);
}

// To the millisecond first: a time of .25 s held as .2499999 in a double
// reads .25, not .24.
std::string TimeLabel(double unix_seconds, int decimals) {
  const double ms = std::round(unix_seconds * 1e3);
  const double whole = std::floor(ms / 1e3);
  time_t t = static_cast<time_t>(whole);
  struct tm tm;
  char buf[32];
  if (!localtime_r(&t, &tm) || strftime(buf, sizeof buf, "%H:%M:%S", &tm) == 0) return "";
  std::string label = buf;
  if (decimals <= 0) return label;
  decimals = std::min(decimals, 3);
  long fraction = std::clamp(std::lround(ms - whole * 1e3), 0L, 999L);
  fraction /= decimals == 1 ? 100 : decimals == 2 ? 10 : 1;
  std::string digits = std::to_string(fraction);
  return label + "." + std::string(static_cast<size_t>(decimals) - digits.size(), '0') + digits;
}

int TimeDecimals(int64_t interval_ns) {
  if (interval_ns <= 0 || interval_ns >= 1000000000) return 0;
  for (int d = 1; d < 3; ++d) {
    int64_t unit = d == 1 ? 100000000 : 10000000;  // a tenth, a hundredth
    if (interval_ns % unit == 0) return d;
  }
  return 3;
}

}  // namespace pm
