#include "playback/reports/report.hh"

#include "playback/reports/rates.hh"

namespace pm {

bool ReportOptions::Recorded(size_t member, size_t field) const {
  if (recorded == nullptr || member >= recorded->size()) return true;
  const std::vector<bool>& fields = (*recorded)[member];
  return fields.empty() || (field < fields.size() && fields[field]);
}

double TimeOrigin::Elapsed(int64_t t_ns, int64_t mono) const {
  if (mono_ns > 0 && mono > 0) return ElapsedSeconds(mono, mono_ns);
  return ElapsedSeconds(t_ns, time_ns);
}

Pair::Pair(const RawSample& p, const RawSample& c, TimeOrigin o, const ReportOptions& opts)
    : prev(p),
      cur(c),
      origin(o),
      time(static_cast<double>(c.time_ns) / 1e9),
      elapsed_time(o.Elapsed(c)),
      interval(GoSeconds(IntervalNs(p, c))),
      options(opts) {}

}  // namespace pm
