#include "playback/reports/rates.hh"

#include "proto/json.hh"

namespace pm {

double GoSeconds(int64_t ns) {
  constexpr int64_t kSecond = 1000000000;
  return static_cast<double>(ns / kSecond) +
         static_cast<double>(ns % kSecond) / 1e9;
}

double ElapsedSeconds(int64_t t_ns, int64_t origin_ns) {
  return (static_cast<double>(t_ns) - static_cast<double>(origin_ns)) / 1e9;
}

RowDelta NamedDelta(const Pair& p, size_t member, std::string_view name, size_t levels) {
  if (!p.Both(member)) return {};
  const MemberRows &prev = p.prev.members[member], &cur = p.cur.members[member];
  size_t i = cur.Find(name, 0);
  return i == MemberRows::npos ? RowDelta{} : DeltaOf(prev, cur, i, levels);
}

RowDelta DeltaOf(const MemberRows& prev, const MemberRows& cur, size_t row, size_t levels) {
  RowDelta d;
  size_t p = prev.Find(cur.names[row], row);
  d.present = cur.live(row) && p != MemberRows::npos && prev.live(p);
  if (!d.present) return d;
  std::span<const uint64_t> c = cur.row(row), b = prev.row(p);
  const size_t counters = c.size() > levels ? c.size() - levels : 0;
  for (size_t k = 0; k < c.size() && k < kMaxRowFields; ++k) {
    uint64_t before = k < b.size() ? b[k] : 0;
    d.values[k] = k >= counters ? static_cast<double>(c[k])
                  : c[k] < before ? 0.0  // a reset: nothing counted, never < 0
                                  : static_cast<double>(c[k] - before);
  }
  return d;
}

double PerSecond(double v, double seconds) { return seconds > 0 ? v / seconds : 0.0; }

void AppendFixedMember(std::string& out, std::string_view key, double v, int digits) {
  if (out.back() != '{') out.push_back(',');
  AppendJsonKey(out, key);
  AppendFixed(out, v, digits);
}

void AppendUintMember(std::string& out, std::string_view key, uint64_t v) {
  if (out.back() != '{') out.push_back(',');
  AppendJsonKey(out, key);
  AppendUint(out, v);
}

void SummaryLine(std::string& out, std::string_view prefix, double v, int precision,
                 std::string_view suffix) {
  out.append(prefix);
  AppendFixed(out, v, precision);
  out.append(suffix).push_back('\n');
}

}  // namespace pm
