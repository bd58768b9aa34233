// PerfMonger's WriteJsonTo methods: compact JSON, keys in its order,
// `%.2f` everywhere but disk latency (`%.3f`), memory as integers.
#include <array>
#include <iterator>

#include "playback/play_text.hh"
#include "proto/json.hh"
#include "playback/rates.hh"
#include "playback/reports.hh"

namespace pm {
namespace {

}  // namespace

void AppendIntrJson(std::string& out, const IntrRates& intr) {
  out.append("{\"core_dev_intr\":");
  AppendDoubles(out, intr.core_dev_intr);
  out.append(",\"core_sys_intr\":");
  AppendDoubles(out, intr.core_sys_intr);
  out.push_back('}');
}

void AppendPlayJson(std::string& out, const Pair& pair) {
  char buf[2 * kFixedMember];
  char* p = Member(buf, "{\"time\":", pair.time, 3);
  AppendWritten(out, buf, Member(p, ",\"elapsed_time\":", pair.elapsed_time, 3));
  PairRates rates;  // the collectors not yet reports
  RateOptions options;
  options.disk_only = pair.options.disk_only;
  ComputeRates(pair.prev, pair.cur, pair.origin_ns, options, rates);
  std::span<const ReportEntry> reports = Reports();
  for (size_t i = 0; i < reports.size(); ++i) {
    if (reports[i].report) {
      reports[i].report->play(out, pair);
      continue;
    }
    switch (i) {
      case 1: if (rates.has_intr) { out.append(",\"intr\":"); AppendIntrJson(out, rates.intr); } break;
    }
  }
  out.push_back('}');
}

}  // namespace pm
