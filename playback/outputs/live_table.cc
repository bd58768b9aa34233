#include "playback/outputs/live_table.hh"

#include <cmath>

#include "common/error.hh"
#include "playback/reports/reports.hh"
#include "proto/pgr_collector_spec.hh"
#include "proto/text.hh"

namespace pm {
namespace {

// "cpu, disk, net, ...": what --columns takes.
std::string Known() {
  std::string out;
  std::span<const ReportEntry> reports = Reports();
  for (size_t i = 0; i < reports.size(); ++i) {
    if (!reports[i].report->live) continue;
    if (!out.empty()) out += ", ";
    out += Collectors()[i].name;
  }
  return out;
}

TableGroup Group(size_t collector, std::string part) {
  const ReportEntry& e = Reports()[collector];
  // A part is a device's, a group's or a process's name as recorded.
  std::string heading = part.empty() ? std::string(e.report->live->heading)
                                     : std::string(Collectors()[collector].name) + ":" +
                                           Printable(part);
  return {e.report->live, e.first_member, std::move(part), std::move(heading)};
}

// One --columns item: KEY or KEY:PART.
TableGroup Parse(std::string_view spec, std::string_view item) {
  size_t colon = item.find(':');
  std::string_view key = item.substr(0, colon);
  std::string part(colon == std::string_view::npos ? "" : item.substr(colon + 1));
  size_t i = FindCollector(key);
  if (i == Collectors().size() || !Reports()[i].report->live || key.empty())
    throw UsageError("--columns '" + Printable(spec) + "': '" + Printable(key) +
                     "' has no columns (write any of " + Known() + ")");
  if (colon != std::string_view::npos && part.empty())
    throw UsageError("--columns '" + Printable(spec) + "': nothing after '" + Printable(key) +
                     ":' (write " + Printable(key) + ":NAME)");
  return Group(i, std::move(part));
}

size_t Width(const TableGroup& g) { return g.slot->columns.size(); }

}  // namespace

LiveTable::LiveTable(std::string_view spec) {
  if (spec.empty()) return;
  chosen_ = true;
  for (size_t start = 0; start <= spec.size();) {
    size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    groups_.push_back(Parse(spec, spec.substr(start, comma - start)));
    start = comma + 1;
  }
}

// Every slot whose member the pair carries: its whole, or its parts.
void LiveTable::Choose(const Pair& p) {
  std::span<const ReportEntry> reports = Reports();
  for (size_t i = 0; i < reports.size(); ++i) {
    const LiveSlot* slot = reports[i].report->live;
    if (!slot || !p.Both(reports[i].first_member)) continue;
    if (!slot->parts) {
      groups_.push_back(Group(i, ""));
      continue;
    }
    std::vector<std::string> parts;
    slot->parts(p.cur, parts);
    for (std::string& part : parts) groups_.push_back(Group(i, std::move(part)));
  }
  chosen_ = true;
}

std::span<const double> LiveTable::Add(const Pair& p) {
  if (!chosen_) Choose(p);
  size_t n = 0;
  for (const TableGroup& g : groups_) n += Width(g);
  row_.assign(n, std::nan(""));
  sum_.resize(n, 0.0);
  weight_.resize(n, 0.0);
  size_t at = 0;
  for (const TableGroup& g : groups_) {
    std::span<double> cells(row_.data() + at, Width(g));
    if (!g.slot->values(p, g.part, cells)) std::fill(cells.begin(), cells.end(), std::nan(""));
    at += Width(g);
  }
  for (size_t i = 0; i < n; ++i) {
    if (std::isnan(row_[i])) continue;
    sum_[i] += row_[i] * p.interval;
    weight_[i] += p.interval;
  }
  ++pairs_;
  return row_;
}

std::vector<double> LiveTable::Average() const {
  std::vector<double> out(sum_.size(), std::nan(""));
  for (size_t i = 0; i < out.size(); ++i)
    if (weight_[i] > 0) out[i] = sum_[i] / weight_[i];
  return out;
}

}  // namespace pm
