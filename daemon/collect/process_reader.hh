// One process's counters as the procs columns hold them
// (proto/columns/process.hh kProcessFields): /proc/PID/stat, /proc/PID/io
// and its CPU time
// (thread_group_cpu.hh), for the procs rows and the processes a library
// caller names while recording (daemon/named_processes.hh).
//
// The files are opened once; an open /proc/PID file refers to that process
// for good, so a pid reused after an exit is never mistaken for it. A
// zombie (exited, not yet reaped by its parent) still reads: its CPU clock
// and files hold its final counters until the reaping.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "daemon/collect/parse_process.hh"
#include "daemon/collect/proc_file.hh"
#include "daemon/collect/thread_group_cpu.hh"
#include "proto/columns/process.hh"

namespace pm {

class ProcessReader {
 public:
  using Values = std::array<uint64_t, kProcessFields.size()>;

  // Throws std::system_error (ENOENT: no such process; EACCES: another
  // user's /proc/PID/io). `real_root`: IsRealRoot(root_dirfd).
  ProcessReader(int root_dirfd, std::string_view pid, bool real_root);

  // Reads every file into `v`; false when the process is gone (an empty
  // file). Throws std::system_error (ESRCH, ENOENT: gone) or FormatError.
  bool Read(Values& v);

  // From the last Read(): its comm, its start time (ticks since boot).
  std::string_view comm() const { return comm_; }
  uint64_t start_ticks() const { return stat_.start_ticks; }
  const std::string& name() const { return stat_file_.name(); }

 private:
  void Fill(Values& v, ThreadGroupCpu::Times cpu) const;

  ProcFile stat_file_, io_file_;
  ThreadGroupCpu cpu_;
  std::string comm_;
  ProcStat stat_;
  ProcIo io_;
};

}  // namespace pm
