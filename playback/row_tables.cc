#include "playback/row_tables.hh"

#include <stdexcept>

#include "playback/rates.hh"
#include "proto/json.hh"

namespace pm {
namespace {

const RowReport* const kReports[] = {&kPressureReport, &kProcessReport, &kCgroupReport,
                                     &kCgroupIoReport};

const TableRow* Find(const RowTable& t, const std::string& name, size_t i) {
  if (i < t.rows.size() && t.rows[i].name == name) return &t.rows[i];
  for (const TableRow& r : t.rows)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace

void ComputeTableDelta(size_t table, const RowTable& prev, const RowTable& cur,
                       TableDelta& out) {
  out.has = prev.has && cur.has;
  if (!out.has) {
    out.rows.clear();
    return;
  }
  const PgrMember& member = RowTableMember(table);
  const size_t counters = member.fields.size() - member.levels;
  out.rows.resize(cur.rows.size());
  for (size_t i = 0; i < cur.rows.size(); ++i) {
    const TableRow& c = cur.rows[i];
    const TableRow* p = Find(prev, c.name, i);
    RowDelta& d = out.rows[i];
    d.name = c.name;
    d.present = c.present && p != nullptr && p->present;
    if (!d.present) {
      d.values.clear();
      continue;
    }
    d.values.resize(c.values.size());
    for (size_t k = 0; k < c.values.size(); ++k) {
      uint64_t before = k < p->values.size() ? p->values[k] : 0;
      // A counter that went backwards was reset: nothing counted, never < 0.
      d.values[k] = k >= counters ? static_cast<double>(c.values[k])
                    : c.values[k] < before ? 0.0
                                           : static_cast<double>(c.values[k] - before);
    }
  }
}

TableDelta ComputeTableDelta(size_t table, const RowTable& prev, const RowTable& cur) {
  TableDelta out;
  ComputeTableDelta(table, prev, cur, out);
  return out;
}

namespace {

const RowReport& FindReport(size_t table) {
  for (const RowReport* r : kReports)
    if (r->key == RowTableMember(table).key) return *r;
  throw std::logic_error("no report for " + std::string(RowTableMember(table).key));
}

}  // namespace

// Looked up once: play asks for every table on every line.
const RowReport& RowReportOf(size_t table) {
  static const auto by_table = [] {
    std::array<const RowReport*, kRowTableCount> reports{};
    for (size_t t = 0; t < kRowTableCount; ++t) reports[t] = &FindReport(t);
    return reports;
  }();
  return *by_table[table];
}

double PerSecond(double v, double seconds) { return seconds > 0 ? v / seconds : 0.0; }

void AppendFixedMember(std::string& out, std::string_view key, double v) {
  if (out.back() != '{') out.push_back(',');
  AppendJsonKey(out, key);
  AppendFixed(out, v, 2);
}

void AppendUintMember(std::string& out, std::string_view key, uint64_t v) {
  if (out.back() != '{') out.push_back(',');
  AppendJsonKey(out, key);
  AppendUint(out, v);
}

}  // namespace pm
