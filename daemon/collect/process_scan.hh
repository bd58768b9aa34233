// Everyone else, named: one scan of every process of the system, taken at
// the start of a recording, after each mark and at the stop (never every
// sample), so that readers can tell each process's CPU and I/O over a
// phase beside the system under test's (docs/phase-cost.md).
//
// Per process (a directory proc/PID below the root):
//   pid, ppid, start   /proc/PID/stat fields 1, 4, 22 (pid and start time
//                      in ticks since boot name one process across scans)
//   uid                the owner of /proc/PID/stat (the process's effective uid)
//   cpu_ns             its CPU clock (clock_getcpuclockid(3), every thread,
//                      exited ones included); below a fake --root, or once
//                      the clock is gone (a zombie), utime+stime ticks in ns
//   read/write_bytes   /proc/PID/io's (null when it cannot be read: another
//                      user's process when not root)
//   comm, cgroup       /proc/PID/stat's comm, /proc/PID/cgroup's "0::" path
//                      (read once per process: a move later is not seen)
// A process that exits during the scan is left out. The scan allocates its
// buffers once and reuses them; its cost is in bench/README.md.
//
// On the real root a process whose CPU clock has not moved since the
// previous scan is not read again: its row is the previous one. It did
// not run, so nothing the row holds moved (the kernel counts I/O to the
// task that issues it, as it runs; the uid and comm change only when it
// runs), except its ppid when its parent exited: a reader takes an idle
// process's parent from the scan before, which changes nothing it counts
// (an idle process used nothing over the phase). An idle process costs
// one clock_gettime() instead of three files (figures in bench/README.md).
#pragma once

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/unique_fd.hh"
#include "daemon/collect/parse_process.hh"

namespace pm {

class ProcessScan {
 public:
  // Throws SystemError when `root_dirfd` has no proc/ directory.
  explicit ProcessScan(int root_dirfd);

  // Appends `[[pid,ppid,start,uid,cpu_ns,read_bytes,write_bytes,"comm",
  // "cgroup"],...]` (pgr(5) "scan" event), one row per process, pid order
  // as the directory lists them. Never throws for one process's file.
  void Append(std::string& out);

 private:
  bool ReadOne(uint32_t pid, std::string& out);
  bool ReadFresh(uint32_t pid, int64_t clock_ns, std::string& out);
  // `name` below `dirfd` into text_, to EOF, capped; false if it cannot be
  // read. `owner`, if given, gets the file's fstat.
  bool Slurp(int dirfd, const char* name, struct stat* owner = nullptr);
  std::string_view CgroupOf(uint32_t pid, const std::string& dir);
  void ForgetGone();

  struct Known {
    uint64_t start = 0;
    bool seen = false;
    std::string path;    // its cgroup
    int64_t clock_ns = -1;  // its CPU clock at the last scan that read it
    std::string row;     // what that scan appended
  };

  UniqueFd proc_;
  bool real_root_;
  uint64_t tick_ns_;
  std::vector<uint32_t> pids_;
  std::string text_;
  std::string comm_;  // the current row's, as JSON
  std::unordered_map<uint32_t, Known> known_;  // by pid
  ProcStat stat_;
  ProcIo io_;
};

// The cgroup v2 path of a /proc/PID/cgroup text ("0::/a/b" -> "/a/b"; ""
// when the process has none: a v1-only system).
std::string_view CgroupV2Path(std::string_view text);

}  // namespace pm
