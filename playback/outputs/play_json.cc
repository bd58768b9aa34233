// `play`'s line: {"time":..,"elapsed_time":.., then each report's members
// in kCollectors order} — PerfMonger's key order (cpu, intr, disk, net,
// mem), ours after.
#include "playback/outputs/play_json.hh"

#include "playback/reports/play_text.hh"
#include "playback/reports/reports.hh"

namespace pm {

void AppendPlayJson(std::string& out, const Pair& pair) {
  char buf[2 * kFixedMember];
  char* p = Member(buf, "{\"time\":", pair.time, 3);
  AppendWritten(out, buf, Member(p, ",\"elapsed_time\":", pair.elapsed_time, 3));
  for (const ReportEntry& e : Reports()) e.report->play(out, pair);
  out.push_back('}');
}

}  // namespace pm
