// A "procs" event line (pgr(5); written by daemon/collect/process_table.hh
// for record --record-procs): the processes that ran over [since, mono],
// with what each used then. Rows carry more elements in a later version:
// those past the 16th are skipped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pm {

class JsonReader;

struct ProcTableRow {
  uint32_t pid = 0, ppid = 0, uid = 0;
  uint64_t start = 0;     // ticks since boot: pid and start name one process
  bool appeared = false;  // started since the previous line
  uint64_t cpu_ns = 0, utime_us = 0, stime_us = 0, run_wait_ns = 0;
  std::optional<uint64_t> read_bytes, write_bytes;  // none: unreadable
  uint64_t rss_kb = 0, threads = 0;
  std::string comm, cmd, cgroup;
};

struct ProcTableEvent {
  int64_t since_mono_ns = 0;
  std::vector<ProcTableRow> rows;
  std::vector<uint32_t> exited;
  uint64_t brief_utime_us = 0, brief_stime_us = 0;
};

// The value of "rows" / "brief" at the reader's position. Throws
// JsonError on a malformed one.
void ReadProcTableRows(JsonReader& r, std::vector<ProcTableRow>& out);
void ReadProcTableBrief(JsonReader& r, ProcTableEvent& out);

}  // namespace pm
