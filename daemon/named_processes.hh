// Processes a library caller names while recording (the `pid` command,
// issue 47): a PostgreSQL backend's parallel workers, learnt from
// pg_stat_activity.leader_pid while the query runs, which the recording's
// header could not list. Each is counted with the system under test from
// the instant it is named, or from its birth when it was born inside the
// phase it is named in (its counters started at zero then; its start time
// counts in 10 ms ticks of the boot clock, so one born in the tick the
// phase began in counts from its birth too); it is read at every sample
// and, once reaped,
// keeps its last reading until the scan line of the phase it died in has
// carried it, then is forgotten: a DBMS naming every parallel worker of
// every query keeps a bounded list, and later scans do not repeat the dead
// (a pid the kernel hands out again is a new process). An exited process
// still reads until its parent reaps it (process_reader.hh): a `sample`
// sent after a worker exits and before its reaping catches its final
// counters; what it did after the last read before its reaping is lost.
//
// Each scan line carries them (pgr(5) "scan", everyone_scan.hh):
//   "added":[[pid,start,[NOW],[FROM]],...]
// NOW: cpu_ns, run_wait_ns, read_bytes, write_bytes, minflt, majflt, ctxsw
// at the sample that ends the scan's phase (a gone process: its last
// reading); FROM: the same when it was named (zeros: born inside that
// phase). A reader counts a phase's NOW less the earlier scan's NOW of the
// same pid and start, or less FROM when the earlier scan has none: what
// ClosePhase() hands the mark's reply.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/unique_fd.hh"
#include "daemon/collect/process_reader.hh"
#include "proto/control_reply.hh"

namespace pm {

class NamedProcesses {
 public:
  // Keeps a copy of `root_dirfd`. Throws SystemError.
  explicit NamedProcesses(int root_dirfd);

  // Names `pid` within the phase that began at `phase_start_boot_ns`
  // (CLOCK_BOOTTIME, the clock its start time counts on): "" (named, or
  // named before), or the reply's error code ("no_such_process": none, or
  // not readable).
  std::string_view Name(uint32_t pid, int64_t phase_start_boot_ns);
  bool Has(uint32_t pid) const;
  // At each sample.
  void Read();
  // A phase ends at the last Read(): adds what they used since the last
  // call (or since named) to `cost`.
  void ClosePhase(SutCost& cost);
  // `,"added":[...]`; nothing when none was named.
  void Append(std::string& out) const;
  // After the scan line of a closed phase: forgets those gone in it (their
  // final counters counted by ClosePhase() and written by Append()).
  void ForgetClosedGone();

 private:
  using Values = ProcessReader::Values;
  struct Row {
    uint32_t pid;
    uint64_t start;
    std::optional<ProcessReader> files;  // none once gone
    Values now{}, from{}, phase_start{};
    bool closed_gone = false;  // gone, and its last phase closed
  };
  void ReadRow(Row& r);

  UniqueFd root_;
  bool real_root_;
  std::vector<Row> rows_;
};

}  // namespace pm
