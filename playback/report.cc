#include "playback/report.hh"

#include "playback/rates.hh"

namespace pm {

bool ReportOptions::Recorded(size_t member, size_t field) const {
  if (recorded == nullptr || member >= recorded->size()) return true;
  const std::vector<bool>& fields = (*recorded)[member];
  return fields.empty() || (field < fields.size() && fields[field]);
}

Pair::Pair(const RawSample& p, const RawSample& c, int64_t origin, const ReportOptions& o)
    : prev(p),
      cur(c),
      origin_ns(origin),
      time(static_cast<double>(c.time_ns) / 1e9),
      elapsed_time(ElapsedSeconds(c.time_ns, origin)),
      interval(GoSeconds(c.time_ns - p.time_ns)),
      options(o) {}

}  // namespace pm
