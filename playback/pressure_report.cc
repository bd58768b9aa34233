// "pressure" in play and summary: the percent of the interval in which
// some (or all: "full") non-idle tasks were stalled on a resource,
//   "pressure":{"cpu":{"some":12.34,"full":0.00},"io":{...},...}
// a line gone from its file (or a pair across it) is null.
#include "playback/rates.hh"
#include "proto/json.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

// "cpu.some" -> "cpu", "some".
std::pair<std::string_view, std::string_view> Split(std::string_view row) {
  size_t dot = row.rfind('.');
  if (dot == std::string_view::npos) return {row, ""};
  return {row.substr(0, dot), row.substr(dot + 1)};
}

double Percent(const RowDelta& d, double seconds) {
  return seconds > 0 ? d.values[0] / 1e6 / seconds * 100.0 : 0.0;
}

// {"cpu":{"some":..,"full":..},...}: rows of one resource are adjacent.
void PlayJson(std::string& out, const TableDelta& t, const PairRates& r) {
  const double seconds = r.interval;
  std::string_view open;
  out.push_back('{');
  for (const RowDelta& d : t.rows) {
    auto [resource, line] = Split(d.name);
    if (resource != open) {
      if (!open.empty()) out.append("},");
      AppendJsonKey(out, resource);
      out.push_back('{');
      open = resource;
    } else {
      out.push_back(',');
    }
    AppendJsonKey(out, line);
    if (d.present) AppendFixed(out, Percent(d, seconds), 2);
    else out.append("null");
  }
  if (!open.empty()) out.push_back('}');
  out.push_back('}');
}

void SummaryJson(std::string& out, const TableDelta& t, const PairRates& r) {
  PlayJson(out, t, r);
}

// * Pressure stall (% of the time)
//         cpu some: 12.34 %
void SummaryText(std::string& out, const TableDelta& t, const PairRates& r) {
  out.append("* Pressure stall (% of the time)\n");
  for (const RowDelta& d : t.rows) {
    auto [resource, line] = Split(d.name);
    std::string label(resource);
    label.append(" ").append(line);
    if (label.size() < 16) out.append(16 - label.size(), ' ');
    out.append(label).append(": ");
    if (d.present) {
      AppendFixed(out, Percent(d, r.interval), 2);
      out.append(" %\n");
    } else {
      out.append("-\n");
    }
  }
  out.push_back('\n');
}

}  // namespace

const RowReport kPressureReport = {"pressure", PlayJson, SummaryJson, SummaryText};

}  // namespace pm
