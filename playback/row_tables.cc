#include "playback/row_tables.hh"

#include <stdexcept>

#include "playback/rates.hh"
#include "proto/json.hh"
#include "proto/pgr_collectors.hh"

namespace pm {
namespace {

const RowReport* const kReports[] = {&kPressureReport, &kProcessReport, &kCgroupReport,
                                     &kCgroupIoReport};

}  // namespace

void ComputeTableDelta(size_t member, const MemberRows& prev, const MemberRows& cur,
                       TableDelta& out) {
  out.has = prev.has && cur.has;
  if (!out.has) {
    out.rows.clear();
    return;
  }
  const PgrMember& descriptor = PgrMemberAt(member);
  const size_t counters = descriptor.fields.size() - descriptor.levels;
  out.rows.resize(cur.rows());
  for (size_t i = 0; i < cur.rows(); ++i) {
    size_t p = prev.Find(cur.names[i], i);
    RowDelta& d = out.rows[i];
    d.name = cur.names[i];
    d.present = cur.live(i) && p != MemberRows::npos && prev.live(p);
    if (!d.present) {
      d.values.clear();
      continue;
    }
    std::span<const uint64_t> c = cur.row(i), b = prev.row(p);
    d.values.resize(c.size());
    for (size_t k = 0; k < c.size(); ++k) {
      uint64_t before = k < b.size() ? b[k] : 0;
      // A counter that went backwards was reset: nothing counted, never < 0.
      d.values[k] = k >= counters ? static_cast<double>(c[k])
                    : c[k] < before ? 0.0
                                    : static_cast<double>(c[k] - before);
    }
  }
}

TableDelta ComputeTableDelta(size_t member, const MemberRows& prev, const MemberRows& cur) {
  TableDelta out;
  ComputeTableDelta(member, prev, cur, out);
  return out;
}

bool IsRowTable(size_t member) { return PgrMemberAt(member).rows == PgrRows::kNamed; }

size_t MemberIndex(std::string_view key) { return PgrMemberIndex(key); }

namespace {

const RowReport& FindReport(size_t member) {
  for (const RowReport* r : kReports)
    if (r->key == PgrMemberAt(member).key) return *r;
  throw std::logic_error("no report for " + std::string(PgrMemberAt(member).key));
}

}  // namespace

// Looked up once: play asks for every table on every line.
const RowReport& RowReportOf(size_t member) {
  static const auto by_member = [] {
    std::array<const RowReport*, kPgrMemberCount> reports{};
    for (size_t m = 0; m < kPgrMemberCount; ++m)
      if (IsRowTable(m)) reports[m] = &FindReport(m);
    return reports;
  }();
  return *by_member[member];
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
