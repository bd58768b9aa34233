#include "bench/scenarios.hh"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "common/unique_fd.hh"

namespace pm::bench {
namespace {

constexpr int kReadyTimeoutMs = 5'000;

double Ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

std::vector<std::string> RecordArgs(const Env& env, const std::string& path,
                                    const std::string& interval) {
  return {env.perfmonger, "record", "-l", path,
          "--ready-fd=" + std::to_string(kReadyFd),
          "--stop-fd=" + std::to_string(kStopFd), "-i", interval};
}

std::string IntervalArg(int64_t ns) { return std::to_string(ns / 1'000'000) + "ms"; }

double FloorStartOnce(const Env& env, long* maxrss_kib) {
  Child child = Spawn({env.floor_start});
  int64_t ready = WaitReady(child, true, kReadyTimeoutMs);
  Exit exit = Reap(child);
  *maxrss_kib = std::max(*maxrss_kib, exit.usage.ru_maxrss);
  return Ms(ready - child.spawn_ns);
}

// write(bytes) + fsync() of a new file in env.dir, timed around fsync only.
double FsyncOnce(const Env& env, size_t bytes) {
  std::string path = env.dir + "/fsync-probe";
  int raw = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (raw < 0) throw std::runtime_error(path + ": " + std::strerror(errno));
  UniqueFd fd = UniqueFd::Adopt(raw);
  std::string data(bytes, 'x');
  if (write(fd.Get(), data.data(), data.size()) != static_cast<ssize_t>(data.size()))
    throw std::runtime_error(path + ": short write");
  int64_t t0 = NowMonoNs();
  if (fsync(fd.Get()) != 0) throw std::runtime_error(path + ": fsync failed");
  double ms = Ms(NowMonoNs() - t0);
  unlink(path.c_str());
  return ms;
}

}  // namespace

StartStopRuns StartStop(const Env& env, int reps, const std::string& ext,
                        const std::string& interval, FloorRuns* floors) {
  StartStopRuns runs;
  for (int i = 0; i < reps; ++i) {
    std::string path = env.dir + "/x" + std::to_string(i) + ext;
    Child child = Spawn(RecordArgs(env, path, interval));
    int64_t ready = WaitReady(child, false, kReadyTimeoutMs);
    int64_t stop = 0;
    Exit exit = StopAndReap(child, &stop);
    RecordingInfo rec = ReadRecording(path);
    unlink(path.c_str());
    runs.ready_ms.push_back(Ms(ready - child.spawn_ns));
    runs.stop_ms.push_back(Ms(exit.exit_ns - stop));
    runs.cpu_s.push_back(CpuSeconds(exit.usage));
    runs.file_bytes.push_back(static_cast<double>(rec.file_bytes));
    runs.samples.push_back(static_cast<double>(rec.samples()));
    runs.maxrss_kib = std::max(runs.maxrss_kib, exit.usage.ru_maxrss);
    if (!floors) continue;
    floors->start_ms.push_back(FloorStartOnce(env, &floors->start_maxrss_kib));
    floors->fsync_ms.push_back(FsyncOnce(env, rec.file_bytes));
    Child sampler = StartFloorSample(env, 10'000'000, 0);
    floors->sample_empty_cpu_s.push_back(FinishFloorSample(sampler, kReadyTimeoutMs));
  }
  return runs;
}

LiveRecording StartRecording(const Env& env, const std::string& name, int64_t interval_ns,
                             const std::vector<std::string>& extra) {
  LiveRecording live;
  live.path = env.dir + "/" + name;
  std::vector<std::string> args = RecordArgs(env, live.path, IntervalArg(interval_ns));
  args.insert(args.end(), extra.begin(), extra.end());
  live.child = Spawn(args);
  live.ready_ns = WaitReady(live.child, false, kReadyTimeoutMs);
  return live;
}

TimedRun FinishRecording(LiveRecording& live) {
  TimedRun run;
  if (ExitedBy(live.child, NowMonoNs()))
    throw std::runtime_error(live.path + ": the recorder exited before it was stopped");
  run.vm_hwm_kib = VmHwmKiB(live.child.pid);
  int64_t stop = 0;
  Exit exit = StopAndReap(live.child, &stop);
  run.stop_ms = Ms(exit.exit_ns - stop);
  run.cpu_s = CpuSeconds(exit.usage);
  run.maxrss_kib = exit.usage.ru_maxrss;
  run.recording = ReadRecording(live.path);
  unlink(live.path.c_str());
  return run;
}

std::vector<std::string> CpuFineFiles() {
  std::vector<std::string> files;
  for (std::string mount : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"})
    if (access((mount + "/cgroup.controllers").c_str(), F_OK) == 0) {
      if (access((mount + "/cpu.stat").c_str(), R_OK) == 0) files.push_back(mount + "/cpu.stat");
      break;
    }
  if (access("/proc/schedstat", R_OK) == 0) files.push_back("/proc/schedstat");
  for (long cpu = 0; cpu < sysconf(_SC_NPROCESSORS_CONF); ++cpu)
    for (int state = 0;; ++state) {
      std::string f = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/cpuidle/state" +
                      std::to_string(state) + "/time";
      if (access(f.c_str(), R_OK) != 0) break;
      files.push_back(f);
    }
  return files;
}

Child StartFloorSample(const Env& env, int64_t interval_ns, uint64_t ticks,
                       const std::vector<std::string>& files, bool cpu_fine) {
  std::vector<std::string> args = {env.floor_sample, std::to_string(interval_ns),
                                   std::to_string(ticks)};
  if (cpu_fine)
    for (const std::string& f : CpuFineFiles()) args.push_back(f);
  args.insert(args.end(), files.begin(), files.end());
  return Spawn(args);
}

double FinishFloorSample(Child& child, int timeout_ms) {
  return CpuSeconds(Reap(child, timeout_ms).usage);
}

}  // namespace pm::bench
