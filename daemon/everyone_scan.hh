// The recorder's scans of everyone else (issue 47): with a system under
// test recorded (--pid rows, `stat`'s command, --cgroup groups), one
// "scan" event line at the start (after the ready line), after each
// mark's reply and before the end trailer, so a reader can name the
// processes that used the CPU and the disks beside it over each phase.
//
//   {"event":"scan","t":T,"mono":M,"at":"start"|"mark"|"stop",
//    "lag_ns":N,"sut":[PID,...],"processes":[[...],...],"added":[...]}
//
// "t"/"mono" are the scan's start; "lag_ns" how long after the instant it
// belongs to (the mark's, the final sample's) it began; "sut" the pids of
// the system under test then (readers add their descendants by ppid);
// "processes" as daemon/collect/process_scan.hh writes them; "added" (only
// once the `pid` command named one) as named_processes.hh does. pgr(5).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "daemon/collect/process_scan.hh"
#include "daemon/named_processes.hh"

namespace pm {

class EveryoneScan {
 public:
  // `sut_pids`: the --pid values.
  EveryoneScan(int root_dirfd, std::vector<std::string> sut_pids)
      : scan_(root_dirfd), sut_(std::move(sut_pids)), named_(root_dirfd) {}

  void AddSut(int pid) { sut_.push_back(std::to_string(pid)); }
  bool IsSut(std::string_view pid) const {
    return std::find(sut_.begin(), sut_.end(), pid) != sut_.end();
  }
  // The processes named by the `pid` command.
  NamedProcesses& named() { return named_; }

  // The line for a scan beginning at (t_ns, mono_ns), `lag_ns` after the
  // instant it belongs to; "\n" included.
  std::string Line(std::string_view at, int64_t t_ns, int64_t mono_ns, int64_t lag_ns);

 private:
  ProcessScan scan_;
  std::vector<std::string> sut_;
  NamedProcesses named_;
};

}  // namespace pm
