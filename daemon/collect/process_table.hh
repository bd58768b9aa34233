// The process table (record --record-procs, issue 48): with each sample
// (its line goes just before the sample's), every process that used CPU
// since the previous scan, one row each, in one "procs" event line
// (pgr(5)); idle processes write nothing.
//
//   {"event":"procs","t":T,"mono":M,"since":S,"rows":[[...],...],
//    "exited":[PID,...],"brief":[UTIME_US,STIME_US]}
//
// A row's counters are what the process used over [since, mono] (a table
// whose rows come and go has no fixed columns to difference, so the
// recorder does it): see kProcTableFields for the columns. "exited" lists
// the processes seen before and gone now; a row with "new" 1 is a process
// that started since the previous scan (its counters are all its own).
// "brief" is the CPU time of processes no scan saw (they started and were
// reaped between two) plus the last moments of those that exited: what
// their parents gained in cutime/cstime beyond what the exited ones had
// at their last scan (ticks: USER_HZ resolution; never negative).
//
// Cost: an idle process costs one clock_gettime() of its CPU clock; only
// one whose clock moved has its files read (a process that did not run
// did no I/O: the kernel counts I/O to the task that issues it, as it
// runs). Below a fake --root there is no clock: stat is read every scan
// and its schedstat gives the CPU time. When a scan takes more than a
// tenth of the interval, the table is written every Nth sample (the
// header's "every"), each line covering the samples since the last.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/unique_fd.hh"
#include "daemon/collect/parse_process.hh"

namespace pm {

inline constexpr std::array<std::string_view, 16> kProcTableFields = {
    "pid", "ppid", "uid", "start", "new", "cpu_ns", "utime_us", "stime_us",
    "run_wait_ns", "read_bytes", "write_bytes", "rss_kb", "threads", "comm", "cmd",
    "cgroup"};
inline constexpr size_t kCmdlineBytes = 64;  // the start of a command line kept

class ProcessTable {
 public:
  // Takes the first scan (the baseline; timed, to choose "every").
  // Throws SystemError when `root_dirfd` has no proc/.
  ProcessTable(int root_dirfd, int64_t interval_ns, int64_t mono_ns);

  // The header's "proctable" member, `"proctable":{...}` (with its comma).
  void Describe(std::string& out) const;
  // The sample at `mono_ns`: scans and returns its line ("\n" included),
  // or "" (a baseline, or a `tick` of the schedule when every() > 1 and
  // this one is not the Nth: every other sample, a mark's, a pause's, the
  // stop's, scans, so that no phase or stretch loses its end).
  std::string Line(int64_t t_ns, int64_t mono_ns, bool tick = false);
  // The next due scan is a baseline (after a resume: no row spans a pause).
  void Rebase() { baseline_ = true; }

  uint64_t every() const { return every_; }

 private:
  struct Known {
    uint64_t start = 0, gen = 0;
    int64_t cpu_ns = 0;
    uint64_t utime = 0, stime = 0, cutime = 0, cstime = 0;  // ticks
    uint64_t wait_ns = 0, read_bytes = 0, write_bytes = 0;
    bool io = false;
  };
  // Ticks: what parents gained in cutime/cstime, what the exited had.
  struct Brief {
    uint64_t children_user = 0, children_system = 0, gone_user = 0, gone_system = 0;
  };

  void Scan(std::string* rows);
  void Visit(uint32_t pid, std::string* rows);
  bool ReadStat(uint32_t pid);
  uint64_t ThreadsWaitNs(const std::string& dir);
  Known Read(uint32_t pid, int64_t clock_ns);
  void Count(const Known* was, const Known& now);
  void AppendRow(std::string& out, uint32_t pid, const Known* was, const Known& now);
  void AppendIdentity(std::string& out, uint32_t pid);
  void Exit(uint32_t pid, const Known& was, std::string* exited);
  void Depart(std::string* exited);

  UniqueFd proc_;
  bool real_root_;
  uint64_t tick_us_;
  uint64_t page_kb_;
  uint64_t every_ = 1, due_ = 0, gen_ = 0;
  bool baseline_ = true;
  int64_t since_mono_ = 0;
  int64_t scan_ns_ = 0;  // the baseline scan's duration, for the header
  std::unordered_map<uint32_t, Known> known_;
  std::vector<uint32_t> pids_, tids_;
  std::string text_, exited_, comm_;
  uint32_t uid_ = 0;  // the owner of the last stat read
  Brief brief_;
  ProcStat stat_;
  ProcIo io_;
};

}  // namespace pm
