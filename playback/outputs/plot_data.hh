// The data files of `perfmonger plot`, which the gnuplot scripts read:
// each report's (playback/reports/report.hh, its plot slot) files, made of blocks
// of lines, gnuplot's `index`es. PerfMonger's are in its plot-formatter
// layout, byte for byte for its recordings:
//
//   cpu.dat   "# All cpu usage" block (percent × num_core), then one block
//             per core ("# core: N"); columns elapsed_time %usr %nice %sys
//             %iowait %hardirq %softirq %steal %guest %idle
//   disk.dat  one block per device ("# device: NAME", names sorted), then
//             "total"; columns elapsed_time r_iops w_iops r_MB/s w_MB/s
//             r_latency w_latency (ms) r_avgsz w_avgsz (sectors) qdepth
//   mem.dat   one block: elapsed_time and the 29 `play` mem keys (kB)
//
// and ours (net.dat, pressure.dat, process.dat, cgroup.dat, intr.dat) are
// listed in perfmonger-plot(1).
//
// Each line is one pair of consecutive samples, stamped (as PerfMonger
// does) with the elapsed time of the pair's *first* sample, "%f" (Go's).
// Blocks after the first are preceded by three blank lines (gnuplot's
// `index` separator). A pause ends a segment: no pair spans it, and the
// next line of each block is preceded by one blank line, so gnuplot draws a
// gap there. Pauses and marks are kept for the charts.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "playback/reading/raw_sample.hh"
#include "playback/reports/report.hh"

namespace pm {

class DiskFilter;
struct ProcTableEvent;

struct PlotMark {
  double elapsed = 0;  // seconds since the first sample
  std::string label;
};

struct PlotSpan {      // a paused stretch, in elapsed seconds
  double from = 0, to = 0;
};

// One block of a data file: its title line ("" for none), its lines, and
// the segment its last line is in.
struct PlotBlock {
  std::string name;
  std::string title;
  std::string text;
  uint64_t segment = 0;
};

// What a report's plot slot writes for one pair.
class PlotLines {
 public:
  // Block `name` of the report's file `file`: made the first time (titled
  // `title`), kept in order of `rank`, then name.
  PlotBlock& Block(size_t file, uint64_t rank, std::string_view name, std::string_view title);
  // Starts a line of `block`: the gap after a pause, then the pair's
  // elapsed time; Col() appends its columns, the caller the '\n'.
  std::string& Line(PlotBlock& block);
  // "\t%f" as Go prints it.
  static void Col(std::string& line, double v);
  // The process table (record --record-procs) written with the pair's
  // second sample, and the last one before it in its segment; null for
  // none.
  const ProcTableEvent* procs() const { return procs_; }
  const ProcTableEvent* prev_procs() const { return prev_procs_; }

 private:
  friend class PlotData;
  using Key = std::pair<uint64_t, std::string>;
  using Blocks = std::map<Key, PlotBlock>;
  std::vector<Blocks>* files_ = nullptr;  // the current report's
  uint64_t segment_ = 0;
  std::string elapsed_text_;  // the current pair's "%f"
  const ProcTableEvent* procs_ = nullptr;
  const ProcTableEvent* prev_procs_ = nullptr;
};

// Report `report`'s plot slot, or null.
const struct PlotSlot* PlotSlotOf(size_t report);

class PlotData {
 public:
  // `disk_only`: keep only the disks whose name it matches (must outlive
  // this object). `legacy`: RecordingInfo::legacy(), PerfMonger's files only.
  // `info`: the recording's header, for the cpu report's sources.
  explicit PlotData(const DiskFilter* disk_only = nullptr, bool legacy = false,
                    const RecordingInfo* info = nullptr);

  // Elapsed time 0 (RecordingInput::origin: also in a window, the
  // recording's), before the first item; without it, the first sample.
  void SetOrigin(TimeOrigin origin);
  void OnSample(const RawSample& s);      // in file order
  void OnEvent(const RecordingEvent& e);  // pause, resume, mark, procs; others ignored

  uint64_t pairs() const { return pairs_; }  // 0: nothing to plot

  // Report `report`'s file `file`: its text, "" when it has no block.
  std::string File(size_t report, size_t file) const;
  // Its blocks' names, in file order (gnuplot's index 0, 1, ...).
  std::vector<std::string> Blocks(size_t report, size_t file) const;
  // Their lines (each block's text, without title or columns), in that order.
  std::vector<std::string> BlockTexts(size_t report, size_t file) const;
  // The same by the file's name ("cpu.dat"): "", {} for none.
  std::string File(std::string_view name) const;
  std::vector<std::string> Blocks(std::string_view name) const;

  std::vector<PlotMark> marks() const;
  std::vector<PlotSpan> pauses() const;    // one still open ends at end()
  double end() const;                      // the last line's elapsed time
  double start() const { return first_elapsed_; }  // the first line's elapsed time
  int64_t origin_ns() const { return origin_.time_ns; }  // elapsed time 0, Unix ns
  int64_t first_ns() const { return first_ns_; }     // the first sample's, Unix ns
  int64_t last_ns() const { return prev_.time_ns; }  // the last sample's

 private:
  struct TimedLabel {
    RecordingEvent at;  // its instant (kind, time_ns, mono_ns)
    std::string label;
  };

  void Pair(const RawSample& prev, const RawSample& cur);
  double LineElapsed(const RawSample& s) const;

  ReportOptions options_;
  RawSample prev_;
  bool have_prev_ = false;
  bool have_first_ = false;
  bool have_origin_ = false;
  int64_t first_ns_ = 0;
  double first_elapsed_ = 0;
  TimeOrigin origin_;       // elapsed time 0 (TimeOrigin: the monotonic clock where recorded)
  double last_pair_elapsed_ = 0;
  uint64_t pairs_ = 0;
  PlotLines lines_;
  std::vector<std::vector<PlotLines::Blocks>> files_;  // per report, per file

  RecordingEvent procs_;  // the last "procs" line
  std::shared_ptr<const ProcTableEvent> pair_procs_;  // the last a pair had, in its segment
  std::vector<TimedLabel> marks_;
  std::vector<RecordingEvent> pause_edges_;  // pause, resume, pause, ...
};

}  // namespace pm
