// play's JSON of a "procs" line (record --record-procs): the members added
// to the line of the sample it was written with, as rates over its own
// interval [since, mono] (every Nth sample's line covers N intervals):
//   ,"proctable":[{"pid":P,"ppid":P,"uid":U,"comm":C,"cmd":C,"cgroup":G,
//     "new":B,"cpu":%,"usr":%,"sys":%,"run_wait":%,"rkbyteps":R|null,
//     "wkbyteps":W|null,"rss_kb":K,"threads":N},...]
//   ,"proctable_exited":[PID,...]  (when any)
//   ,"proctable_brief":{"usr":%,"sys":%}
// Percentages are of one core, %.2f (usr, sys, proctable_brief: 10 ms ticks).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "playback/reading/proc_table_event.hh"

namespace pm {

// A row's values over `interval_ns`, as play and the CSV show them.
struct ProcRowRates {
  double cpu, usr, sys, run_wait;               // % of one core
  std::optional<double> rkbyteps, wkbyteps;     // none: unreadable, or no interval
};
ProcRowRates RatesOf(const ProcTableRow& r, int64_t interval_ns);

void AppendProcTablePlay(std::string& out, const ProcTableEvent& e, int64_t mono_ns);

}  // namespace pm
