// "pressure" in play and summary: the percent of the interval in which
// some (or all: "full") non-idle tasks were stalled on a resource,
//   "pressure":{"cpu":{"some":12.34,"full":0.00},"io":{...},...}
// a line gone from its file (or a pair across it) is null.
#include "playback/rates.hh"
#include "playback/report.hh"
#include "proto/json.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

constexpr size_t kMember = PgrMemberIndex("pressure");

// "cpu.some" -> "cpu", "some".
std::pair<std::string_view, std::string_view> Split(std::string_view row) {
  size_t dot = row.rfind('.');
  if (dot == std::string_view::npos) return {row, ""};
  return {row.substr(0, dot), row.substr(dot + 1)};
}

double Percent(const RowDelta& d, double seconds) {
  return seconds > 0 ? d[0] / 1e6 / seconds * 100.0 : 0.0;
}

// {"cpu":{"some":..,"full":..},...}: rows of one resource are adjacent.
void Object(std::string& out, const Pair& p) {
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  std::string_view open;
  out.push_back('{');
  for (size_t i = 0; i < cur.rows(); ++i) {
    auto [resource, line] = Split(cur.names[i]);
    if (resource != open) {
      if (!open.empty()) out.append("},");
      AppendJsonKey(out, resource);
      out.push_back('{');
      open = resource;
    } else {
      out.push_back(',');
    }
    AppendJsonKey(out, line);
    RowDelta d = DeltaOf(prev, cur, i, 0);
    if (d.present) AppendFixed(out, Percent(d, p.interval), 2);
    else out.append("null");
  }
  if (!open.empty()) out.push_back('}');
  out.push_back('}');
}

void Play(std::string& out, const Pair& p) {
  if (!p.Both(kMember)) return;
  out.append(",\"pressure\":");
  Object(out, p);
}

void SummaryJson(std::string& out, const Pair& p) {
  if (p.rated()) Play(out, p);
}

// * Pressure stall (% of the time)
//         cpu some: 12.34 %
void SummaryText(std::string& out, const Pair& p) {
  if (!p.rated() || !p.Both(kMember)) return;
  const MemberRows &prev = p.prev.members[kMember], &cur = p.cur.members[kMember];
  out.append("* Pressure stall (% of the time)\n");
  for (size_t i = 0; i < cur.rows(); ++i) {
    auto [resource, line] = Split(cur.names[i]);
    std::string label(resource);
    label.append(" ").append(line);
    if (label.size() < 16) out.append(16 - label.size(), ' ');
    out.append(label).append(": ");
    RowDelta d = DeltaOf(prev, cur, i, 0);
    if (d.present) {
      AppendFixed(out, Percent(d, p.interval), 2);
      out.append(" %\n");
    } else {
      out.append("-\n");
    }
  }
  out.push_back('\n');
}

}  // namespace

extern const Report kPressureReport;
constexpr Report kPressureReport = {
    .play = Play,
    .summary_text = SummaryText,
    .summary_json = SummaryJson,
    .phases = &kCounterGaps,
    .csv = nullptr,
    .openmetrics = nullptr,
    .plot = nullptr,
    .live = nullptr,
};

}  // namespace pm
