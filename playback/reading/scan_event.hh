// A "scan" event line (pgr(5); written by daemon/everyone_scan.hh): every
// process of the system at one instant, as readers keep it. Rows carry
// more elements in a later version: those past the ninth are skipped.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pm {

class JsonReader;

struct ScannedProcess {
  uint32_t pid = 0, ppid = 0;
  uint64_t start = 0;  // ticks since boot: pid and start name one process
  uint32_t uid = 0;
  uint64_t cpu_ns = 0;
  std::optional<uint64_t> read_bytes, write_bytes;  // none: unreadable
  std::string comm, cgroup;
};

// A process the `pid` command named (daemon/named_processes.hh): its
// counters at the scan's phase end (`now`) and when named (`from`).
struct NamedScanRow {
  uint32_t pid = 0;
  uint64_t start = 0;
  // cpu_ns, run_wait_ns, read_bytes, write_bytes, minflt, majflt, ctxsw
  std::array<uint64_t, 7> now{}, from{};
};

struct ScanEvent {
  std::string at;      // "start", "mark", "stop"
  int64_t lag_ns = 0;  // after the instant it belongs to
  std::vector<uint32_t> sut;  // the system under test's pids then
  std::vector<ScannedProcess> processes;
  std::vector<NamedScanRow> added;  // by the `pid` command
};

// The value of "sut" / "processes" at the reader's position. Throws
// JsonError on a malformed one.
void ReadScanPids(JsonReader& r, std::vector<uint32_t>& out);
// A pid or uid (JsonError above 2^32); a count or null (none). Also the
// "procs" line's (proc_table_event.hh).
uint32_t ReadU32(JsonReader& r);
std::optional<uint64_t> ReadOptional(JsonReader& r);
void ReadScanProcesses(JsonReader& r, std::vector<ScannedProcess>& out);
void ReadScanNamed(JsonReader& r, std::vector<NamedScanRow>& out);

}  // namespace pm
