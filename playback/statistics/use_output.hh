// summary --use's output (playback/statistics/use_span.hh): a block of rows per
// resource and one verdict line per span (the whole, or each phase).
//
//   * USE: utilisation, saturation, errors over N intervals (saturated:
//     busy >= 95 %, PSI > 10 %, aqu-sz > 1, any run queue beyond the CPUs,
//     drop, swap, direct reclaim or throttling; named when saturated >= 5 %
//     of the time; saturated stretches under 50 ms apart are one burst)
//     RESOURCE: saturated P % of the time, in N bursts of A to B ms
//       U busy: mean 45.20 %, p99 100.00 %, max 100.00 %; over 12.0 % of the time
//       S aqu-sz: mean ..; over ..      (await: "; at low load 0.51 ms")
//       E OOM kills: 0 over the span
//       S: --record-load for the run queue          (what was not recorded)
//   USE verdict: disk vda: saturated 33.1 % of the time, in 5 bursts of
//     200 to 220 ms; busy p99 100.00 %, aqu-sz p99 1.00; CPU 22.00 %
//   USE verdict: no resource saturated (CPU 3.10 %)
//
// A resource is named when saturated for at least --use-share % of the
// span; the binding one is the most saturated, others follow ("also
// saturated"). Burst lengths are sums of whole intervals (a quiet
// stretch shorter than --use-gap inside one included): they are as
// precise as the recording's interval, which the block's heading names.
#pragma once

#include <string>

namespace pm {

class UseSpan;

void AppendUseText(std::string& out, const UseSpan& span);
// The verdict line's text after "USE verdict: ", and the binding resource's
// name ("CPU", "disk vda"; "" when none is saturated), as the text and
// JSON give them (plot --report, tools/plot/plot_report_use.hh).
std::string UseVerdict(const UseSpan& span);
std::string UseBinding(const UseSpan& span);
// ,"use":{"intervals":N,"interval_max":S,"thresholds":{..,"gap":S},
//   "resources":[{"name":..,"saturated":%,"bursts":{"count":..,"longest":S,
//   "shortest":S},"signals":[{"letter":..,"label":..,"unit":..,"mean":..,
//   "p99":..,"max":..,"total":..,"over":%,"low_load":..}],"missing":[..]}],
//   "binding":NAME|null,"verdict":LINE}
void AppendUseJson(std::string& out, const UseSpan& span);

}  // namespace pm
