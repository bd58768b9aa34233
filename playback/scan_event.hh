// A "scan" event line (pgr(5); written by daemon/everyone_scan.hh): every
// process of the system at one instant, as readers keep it. Rows carry
// more elements in a later version: those past the ninth are skipped.
#pragma once

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

struct ScanEvent {
  std::string at;      // "start", "mark", "stop"
  int64_t lag_ns = 0;  // after the instant it belongs to
  std::vector<uint32_t> sut;  // the system under test's pids then
  std::vector<ScannedProcess> processes;
};

// The value of "sut" / "processes" at the reader's position. Throws
// JsonError on a malformed one.
void ReadScanPids(JsonReader& r, std::vector<uint32_t>& out);
void ReadScanProcesses(JsonReader& r, std::vector<ScannedProcess>& out);

}  // namespace pm
