// The data files of `perfmonger plot`, in PerfMonger's plot-formatter
// layout (byte for byte for its recordings), which the gnuplot scripts read:
//
//   cpu.dat   "# All cpu usage" block (percent × num_core), then one block
//             per core ("# core: N"); columns elapsed_time %usr %nice %sys
//             %iowait %hardirq %softirq %steal %guest %idle
//   disk.dat  one block per device ("# device: NAME", names sorted), then
//             "total"; columns elapsed_time r_iops w_iops r_MB/s w_MB/s
//             r_latency w_latency (ms) r_avgsz w_avgsz (sectors) qdepth
//   mem.dat   one block: elapsed_time and the 29 `play` mem keys (kB)
//   net.dat   (ours) one block per interface ("# interface: NAME"), then
//             "total"; columns elapsed_time rx_kB/s tx_kB/s rx_pkt/s
//             tx_pkt/s rx_err/s tx_err/s rx_drop/s tx_drop/s
//
// Each line is one pair of consecutive samples, stamped (as PerfMonger
// does) with the elapsed time of the pair's *first* sample, "%f" (Go's).
// Blocks after the first are preceded by three blank lines (gnuplot's
// `index` separator). A pause ends a segment: no pair spans it, and the
// next line of each block is preceded by one blank line, so gnuplot draws a
// gap there. Pauses and marks are kept for the charts.
#pragma once

#include "playback/disk_filter.hh"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "playback/raw_sample.hh"

namespace pm {

struct PlotMark {
  double elapsed = 0;  // seconds since the first sample
  std::string label;
};

struct PlotSpan {      // a paused stretch, in elapsed seconds
  double from = 0, to = 0;
};

class PlotData {
 public:
  // `disk_only`: keep only the disks whose name it matches (must outlive
  // this object).
  explicit PlotData(const DiskFilter* disk_only = nullptr) : disk_only_(disk_only) {}

  void OnSample(const RawSample& s);      // in file order
  void OnEvent(const RecordingEvent& e);  // pause, resume, mark; others ignored

  uint64_t pairs() const { return pairs_; }  // 0: nothing to plot

  // The files' text; "" when the recording lacks that collector.
  std::string CpuDat() const;
  std::string DiskDat() const;
  std::string MemDat() const;
  std::string NetDat() const;

  bool has_cpu() const { return has_cpu_; }
  bool has_mem() const { return has_mem_; }
  int num_core() const { return static_cast<int>(cores_.size()); }
  std::vector<std::string> disks() const;  // sorted, without "total"
  std::vector<std::string> nets() const;   // sorted, without "total"
  std::vector<PlotMark> marks() const;
  std::vector<PlotSpan> pauses() const;    // one still open ends at end()
  double end() const;                      // the last line's elapsed time

 private:
  // One block of a file: its lines, and the segment its last line is in.
  struct Block {
    std::string text;
    uint64_t segment = 0;
  };
  struct TimedLabel {
    int64_t time_ns;
    std::string label;
  };

  void Pair(const RawSample& prev, const RawSample& cur);
  Block& Line(Block& block);  // starts a line: gap, then the elapsed time
  double Elapsed(int64_t ns) const;

  const DiskFilter* disk_only_;
  RawSample prev_;
  bool have_prev_ = false;
  bool have_first_ = false;
  int64_t first_ns_ = 0;
  int64_t last_pair_ns_ = 0;
  uint64_t pairs_ = 0;
  uint64_t segment_ = 0;
  std::string elapsed_text_;  // the current pair's "%f"

  bool has_cpu_ = false, has_disk_ = false, has_net_ = false, has_mem_ = false;
  Block cpu_all_;
  std::vector<Block> cores_;
  std::map<std::string, Block> disks_, nets_;
  Block disk_total_, net_total_, mem_;

  std::vector<TimedLabel> marks_;
  std::vector<int64_t> pause_edges_;  // pause, resume, pause, ...: ns
};

}  // namespace pm
