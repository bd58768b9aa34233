// The recorder's view of /proc: every enabled collector, read together.
//
// All files are reached through a root directory fd (the real "/" in the
// daemon, a fake tree such as test/data/proc-small in tests), opened once at
// construction and kept open; a sample re-reads each from offset 0. What is
// recorded (cores, devices, interfaces, interrupt sources) is fixed at
// construction and declared in the header (DescribeJson); a row that later
// vanishes is written as `null`, a new one is ignored. The output follows
// proto/pgr_format.hh.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "proto/control_reply.hh"
#include "proto/pgr_collector_spec.hh"

namespace pm {

class Collector;

struct CollectorOptions {
  CollectorOptions();  // the collectors on by default
  // Per kCollectors entry (proto/pgr_collectors.hh): recorded or not.
  std::vector<bool> enabled;
  // By name ("cpu", "intr", ...); throws std::out_of_range for another.
  std::vector<bool>::reference on(std::string_view name) {
    return enabled.at(CollectorIndexOf(name));
  }
  bool on(std::string_view name) const { return enabled.at(CollectorIndexOf(name)); }
  // -d names. Empty: whole devices with I/O since boot. Otherwise exactly
  // these devices (partitions allowed, idle ones too), in /proc/diskstats order.
  std::vector<std::string> disks;
  // Per kCollectors entry with a `value` option: the rows it names, in the
  // order given (--pid 42 --pid 7: "42", "7").
  std::vector<std::vector<std::string>> values;
  std::vector<std::string>& values_of(std::string_view name) {
    return values.at(CollectorIndexOf(name));
  }
  const std::vector<std::string>& values_of(std::string_view name) const {
    return values.at(CollectorIndexOf(name));
  }
  // `stat`: one more "procs" row, "cmd", for the command it runs: zeros
  // (the process does not exist yet) until BindCommand() names its pid.
  bool command_process = false;
  std::string command_comm;  // its command name as the kernel will show it
};

class CollectorSet {
 public:
  // Opens every enabled file and reads each once to learn its rows. Throws
  // UsageError for a -d device absent from /proc/diskstats or a --pid that
  // does not exist, SystemError if a
  // file cannot be opened or read, FormatError if one cannot be parsed.
  CollectorSet(int root_dirfd, const CollectorOptions& opts);
  ~CollectorSet();

  // The number of "cpuN" lines in /proc/stat at construction (counted even
  // with the cpu collector off).
  int num_core() const noexcept { return num_core_; }

  // The header's "collectors" object: {"cpu":{...},"proc":{...},...}.
  std::string DescribeJson() const;

  // Reads every file now and appends `,"cpu":[[...],...],"proc":[...],...`
  // to a sample line begun by BeginSampleLine. Every file is read and parsed
  // before anything is appended, so on an exception (SystemError,
  // FormatError) `line` is unchanged. Allocates nothing in steady state
  // beyond the growth of `line`.
  void AppendSample(std::string& line);

  // `stat`'s command started as `pid`: its "procs" row ("cmd") follows it
  // from the next sample on. Throws SystemError if /proc/PID cannot be read.
  void BindCommand(int pid);

  // A phase ends at the last sample: what the system under test (the
  // procs rows) used since the previous call or the first sample, summed
  // over the rows recorded (not null) at both ends. The next phase starts
  // there.
  SutCost ClosePhase();

 private:
  int num_core_ = 0;
  std::vector<std::unique_ptr<Collector>> collectors_;
};

}  // namespace pm
