// One process's CPU time at the kernel's own resolution, for the procs
// collector, where /proc/PID/stat counts in 10 ms ticks:
//
//   run   the process CPU clock (clock_getcpuclockid(3)): the kernel's
//         sum_exec_runtime of every thread, those that already exited
//         included, in ns. Any user may read it for any process.
//   wait  time its threads were runnable but waiting for a CPU (run-queue
//         wait: its CPU saturation), the sum of /proc/PID/task/*/schedstat's
//         second field (ns, CONFIG_SCHED_INFO). The kernel keeps no group
//         total of it: a thread that exits keeps the wait read at the
//         sample before; what it waited after that is lost.
//   slices the threads' schedstat third field summed (the times they were
//         switched onto a CPU: their context switches), kept as wait is.
//
// Below a fake --root there is no clock for the tree's process: its run
// time is the threads' schedstat sum too (first field), with the same
// caveat for threads that exit.
//
// Owns an fd on /proc/PID/task and one on each live thread's schedstat,
// opened once and pread each sample. The pid is the caller's to pin: read
// the clock before a pinned /proc/PID file, and a read of that file that
// succeeds proves the clock was this process's (a pid is reused only
// after its process is reaped).
#pragma once

#include <time.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/unique_fd.hh"
#include "daemon/collect/parse_process.hh"
#include "daemon/collect/proc_file.hh"

namespace pm {

class ThreadGroupCpu {
 public:
  struct Times {
    uint64_t run_ns = 0, wait_ns = 0;
    uint64_t slices = 0;  // times its threads were switched onto a CPU
  };

  // `use_clock`: `root_dirfd` is the real "/". Throws std::system_error
  // (ENOENT) when the process has no /proc/PID/task.
  ThreadGroupCpu(int root_dirfd, std::string_view pid, bool use_clock);

  // Throws std::system_error ESRCH or ENOENT once the process is gone.
  Times Read();

  // Whether run time comes from the process clock (else schedstat).
  bool clock() const { return clock_.has_value(); }

 private:
  struct Thread {
    uint32_t tid;
    ProcFile file;
    Schedstat last;
  };

  void ScanThreads();
  void Depart(const Thread& gone);
  void Open(uint32_t tid);
  Times SumThreads();

  int root_dirfd_;
  std::string dir_;  // "proc/PID/task"
  UniqueFd task_dir_;
  std::optional<clockid_t> clock_;
  std::vector<Thread> threads_;  // by tid, ascending
  std::vector<Thread> next_;     // scratch: the next listing's
  std::vector<uint32_t> tids_;   // scratch: the directory's listing
  Schedstat departed_;           // threads gone, as last read
  Schedstat scratch_;
};

// Whether `root_dirfd` is the real "/" (not a fake --root tree).
bool IsRealRoot(int root_dirfd);

}  // namespace pm
