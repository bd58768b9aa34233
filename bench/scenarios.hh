// The measured scenarios. Each spawns the real binaries the way an embedding
// caller does (spawn.hh) and returns raw figures; report.cc judges them.
//
// The machine may be shared (builds running beside the bench), so a figure
// and its floor are always taken under the same conditions: start-up runs
// alternate recorder / floor / fsync repetition by repetition, and a timed
// recording runs concurrently with its floor sampler.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/recording.hh"
#include "bench/spawn.hh"

namespace pm::bench {

struct Env {
  std::string perfmonger;    // the recorder under test
  std::string floor_start;   // bench/floor_start.cc
  std::string floor_sample;  // bench/floor_sample.cc
  std::string floor_echo;    // bench/floor_echo.cc
  std::string dir;           // where recordings go (a fresh temp dir)
};

// Recorder runs started, ready line read, stopped at once, reaped; each to
// a new file `x<rep><ext>`.
struct StartStopRuns {
  std::vector<double> ready_ms;   // spawn -> ready line read
  std::vector<double> stop_ms;    // close(stop fd) -> pidfd readable
  std::vector<double> cpu_s;      // user + sys
  std::vector<double> file_bytes;
  std::vector<double> samples;
  long maxrss_kib = 0;            // the largest ru_maxrss seen
};

// What is measured beside each recorder repetition.
struct FloorRuns {
  std::vector<double> start_ms;   // floor_start: spawn -> first byte on fd 3
  long start_maxrss_kib = 0;
  std::vector<double> fsync_ms;   // fsync of a new file the recording's size
  std::vector<double> sample_empty_cpu_s;  // floor_sample with 0 ticks
};

// `reps` repetitions of: recorder start/stop (gzip, -i `interval`), then,
// if `floors` is given, floor_start, an fsync of a file the size of that
// recording in the same directory, and an empty floor_sample run.
StartStopRuns StartStop(const Env& env, int reps, const std::string& ext,
                        const std::string& interval, FloorRuns* floors = nullptr);

// A recording running until Finish(): started, ready line read.
struct LiveRecording {
  Child child;
  std::string path;
  int64_t ready_ns = 0;
};
// `extra`: more record options (the collectors beyond the default set).
LiveRecording StartRecording(const Env& env, const std::string& name, int64_t interval_ns,
                             const std::vector<std::string>& extra = {});

struct TimedRun {
  double cpu_s = 0;      // user + sys
  long maxrss_kib = 0;   // ru_maxrss (counts the bench up to its execve)
  long vm_hwm_kib = 0;   // VmHWM of the recorder's own image, before stop
  double stop_ms = 0;
  RecordingInfo recording;
};
// Stops through the stop fd, reaps, decodes and removes the file.
TimedRun FinishRecording(LiveRecording& live);

// The finer CPU time files the recorder's cpu collector reads besides
// /proc/stat on this machine (daemon/collect/cpu_fine.hh): the cgroup2
// root's cpu.stat, /proc/schedstat, each CPU's cpuidle state times.
std::vector<std::string> CpuFineFiles();

// The floor sampler over the default set's files (with the finer CPU
// files unless `cpu_fine` is false) and `files`.
Child StartFloorSample(const Env& env, int64_t interval_ns, uint64_t ticks,
                       const std::vector<std::string>& files = {}, bool cpu_fine = true);
double FinishFloorSample(Child& child, int timeout_ms);  // CPU seconds, user + sys

}  // namespace pm::bench
