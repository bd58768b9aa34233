#include "playback/outputs/proc_table_plot.hh"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "playback/reading/proc_table_event.hh"
#include "playback/outputs/proc_table_json.hh"
#include "proto/text.hh"

namespace pm {
namespace {

std::string BlockName(const ProcTableRow& r) {
  return std::to_string(r.pid) + " " + Printable(r.comm);
}

PlotBlock& BlockOf(PlotLines& out, size_t file, const ProcTableRow& r) {
  const std::string name = BlockName(r);
  return out.Block(file, r.pid, name, "# process: " + name);
}

// No segment's number: PlotLines::Line() starts the block's next line
// with a blank one, as after a pause.
constexpr uint64_t kGapNext = ~uint64_t{0};

using ProcessId = std::pair<uint32_t, uint64_t>;  // pid, start: one process

std::vector<ProcessId> Listed(const ProcTableEvent& e) {
  std::vector<ProcessId> ids;
  for (const ProcTableRow& r : e.rows) ids.emplace_back(r.pid, r.start);
  std::sort(ids.begin(), ids.end());
  return ids;
}

}  // namespace

void PlotProcTable(PlotLines& out, const Pair& p, size_t file) {
  const ProcTableEvent* cur = out.procs();
  if (!cur) return;
  const int64_t interval_ns = p.cur.mono_ns - cur->since_mono_ns;
  for (const ProcTableRow& r : cur->rows) {
    const ProcRowRates rates = RatesOf(r, interval_ns);
    std::string& line = out.Line(BlockOf(out, file, r));
    for (double v : {rates.cpu, rates.usr, rates.sys}) PlotLines::Col(line, v);
    line.push_back('\n');
  }
  const ProcTableEvent* prev = out.prev_procs();
  if (!prev) return;
  const std::vector<ProcessId> listed = Listed(*cur);
  for (const ProcTableRow& r : prev->rows) {
    if (std::binary_search(listed.begin(), listed.end(), ProcessId{r.pid, r.start})) continue;
    PlotBlock& block = BlockOf(out, file, r);
    std::string& line = out.Line(block);
    for (int i = 0; i < 3; ++i) PlotLines::Col(line, 0);
    line.push_back('\n');
    block.segment = kGapNext;  // idle from here: its next line after a gap
  }
}

}  // namespace pm
