// A phase's system under test beside everyone else, and its verdict
// (issue 47; docs/phase-cost.md, pgr(5) "scan").
//
// Everyone else comes from the two scans that bound the span (scan_event.hh):
// a process in both is matched by pid and start time and counted by its
// difference; one born inside the span (in the later scan only) by its
// whole CPU and I/O. The system under test (SUT) is the scans' "sut" pids,
// the processes below them (by ppid: descendants alive at a scan), and those
// in a recorded --cgroup group or below it, and the processes the `pid`
// command added (the scans' "added" rows: a parallel query's workers). The recorder itself is neither:
// it is counted apart. Processes that came and went between the scans are
// the unnamed remainder: machine busy CPU − SUT − named − the recorder.
//
// The verdict is NOISY when any of these reaches its threshold:
//   cpu       one process outside the SUT (or the unnamed remainder), in %
//             of one core over the span
//   io        the share of the span the recorded disks were busy with I/O
//             outside the SUT: their busy time (io_ms, the busiest disk)
//             × the share of the disks' bytes that foreign processes moved
//   steal     CPU steal, in % of the machine (a VM's host's noise)
//   pressure  PSI cpu "some", in % of the span (with --record-pressure)
// and CLEAN otherwise; each reason is one phrase, e.g.
//   "stress-ng (pid 4242) used 24.0 % of a core from 3.21 s"
// Foreign processes in a cgroup other than the root are judged together
// by their group: "cgroup /bench-noise used 24.1 % of a core (stress-ng,
// pid 4242, from 3.21 s)"; a process in such a group is not named again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "playback/outputs/phases.hh"
#include "playback/reading/raw_sample.hh"

namespace pm {

struct Pair;

// Defaults: summary(1), stat(1) --noisy-cpu, --noisy-io, --noisy-steal,
// --noisy-pressure.
struct NoiseThresholds {
  double cpu_pct = 10, io_pct = 10, steal_pct = 5, pressure_pct = 10;
};

struct NamedProcess {
  uint32_t pid = 0, uid = 0;
  std::string comm, cgroup;
  double cpu_s = 0;
  uint64_t read_bytes = 0, write_bytes = 0;
  bool io_known = true;  // /proc/PID/io was readable at both ends
  double onset_s = 0;    // when it started, from the span's start (0: before)
};

// Processes outside the SUT summed by their cgroup v2 group (the scans'
// cgroup column), for the groups other than the root.
struct NamedGroup {
  std::string cgroup;
  double cpu_s = 0;
  uint64_t read_bytes = 0, write_bytes = 0;
  size_t processes = 0;
  NamedProcess busiest;  // by CPU
};

struct PhaseEveryone {
  double seconds = 0;  // the span's active time
  bool scanned = false;  // both scans recorded
  int64_t scan_lag_ns = 0;  // the later scan's lag after its instant
  std::optional<double> machine_cpu_s;  // busy CPU (cpu collector)
  double sut_cpu_s = 0, foreign_cpu_s = 0, recorder_cpu_s = 0;
  std::optional<double> remainder_cpu_s;  // with machine_cpu_s
  uint64_t sut_bytes = 0, foreign_bytes = 0;
  std::optional<uint64_t> disk_bytes;  // the recorded disks'
  std::optional<double> disk_busy_s, steal_pct, cpu_some_pct;
  std::vector<NamedProcess> top_cpu, top_io;  // at most 5 each, foreign only
  std::vector<NamedGroup> top_groups;  // at most 5, by CPU
  double max_cpu_pct = 0;  // the busiest foreign process's % of one core
};

struct Verdict {
  bool noisy = false;
  std::vector<std::string> reasons;  // empty when clean
  // "CLEAN" or "NOISY: reason; reason"
  std::string Line() const;
};

// `pair` spans the phase (its first sample to its active end).
PhaseEveryone MeasureEveryone(const SpanScans& scans, const Pair& pair,
                              const RecordingInfo& info);
// The share of the span the disks were busy with foreign I/O, in %.
std::optional<double> ForeignIoPct(const PhaseEveryone& e);
Verdict Judge(const PhaseEveryone& e, const NoiseThresholds& t);

// phase_groups.cc: e.top_groups from e.top_cpu (every foreign process,
// before KeepTop trims it); the reason for a group over the threshold.
void GroupForeign(PhaseEveryone& e);
std::string GroupReason(const NamedGroup& g, double seconds);
// "24.0 %", "comm (pid 42) used 24.0 % of a core from 3.21 s"
std::string Percent(double pct);
std::string CpuReason(const NamedProcess& n, double seconds);

// A span's measure and verdict, or none without a scan at each end (no
// system under test, an older or a PerfMonger recording, a time window
// that cuts the scans off): outputs then stay as they were. `end`: the
// span's active end.
struct SpanVerdict {
  PhaseEveryone everyone;
  Verdict verdict;
};
std::optional<SpanVerdict> JudgeSpan(const RawSample& first, const RawSample& end,
                                     const SpanScans& scans, const RecordingInfo& info,
                                     const NoiseThresholds& t);

// Text: "* Everyone else" block then "Verdict: ..." and a blank line.
void AppendEveryoneText(std::string& out, const PhaseEveryone& e, const Verdict& v);
// JSON members: ,"everyone":{...},"verdict":{"noisy":B,"reasons":[...],"line":S}
void AppendEveryoneJson(std::string& out, const PhaseEveryone& e, const Verdict& v);

}  // namespace pm
