// perfmonger-bench: start-up, stop, CPU, memory, size and jitter figures of
// `perfmonger record` with the default collectors, each beside a floor
// measured in the same run. Not a test: it prints, it does not judge CI.
//
// Usage: perfmonger-bench [--quick]
// The recorder is $PERFMONGER, else `perfmonger` next to this binary, else
// ../tools/perfmonger (the meson build tree). The floor programs sit next to
// this binary. Recordings go to a fresh directory under $TMPDIR (or /tmp).
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/report.hh"
#include "bench/scenarios.hh"
#include "bench/stats.hh"

namespace fs = std::filesystem;
using namespace pm::bench;

namespace {

constexpr int64_t kMs = 1'000'000;
const std::vector<std::string> kV1 = {"--format-version", "1"};
const std::vector<std::string> kV2 = {"--format-version", "2"};

struct Plan {
  int reps = 100;        // start/stop and floor_start repetitions
  int empty_reps = 10;   // empty runs subtracted from the timed runs
  int64_t run_10_ns = 10'000 * kMs;   // run beside its floor
  int64_t run_100_ns = 15'000 * kMs;  // gzip and zstd beside the floor
  int cmd_pairs = 500;   // pause/resume pairs, 4 pings per pair
  int64_t run_sar_ns = 20'000 * kMs;  // the sar collectors beside their floor
};

std::string FindRecorder(const fs::path& self_dir) {
  if (const char* env = std::getenv("PERFMONGER"); env && *env) return env;
  for (fs::path p : {self_dir / "perfmonger", self_dir / ".." / "tools" / "perfmonger"})
    if (access(p.c_str(), X_OK) == 0) return p.lexically_normal();
  throw std::runtime_error("perfmonger not found next to " + self_dir.string() +
                           " nor in ../tools; set PERFMONGER=/path/to/perfmonger");
}

std::string FsName(const std::string& dir) {
  struct statfs s;
  if (statfs(dir.c_str(), &s) != 0) return "?";
  switch (static_cast<unsigned long>(s.f_type)) {
    case 0x01021994: return "tmpfs";
    case 0xEF53: return "ext4";
    case 0x58465342: return "xfs";
    case 0x9123683E: return "btrfs";
    case 0x794C7630: return "overlayfs";
    default: return Fmt("fs 0x%lx", static_cast<unsigned long>(s.f_type));
  }
}

std::string LoadAvg() {
  char buf[64] = "?";
  if (FILE* f = std::fopen("/proc/loadavg", "re")) {
    if (!std::fgets(buf, sizeof buf, f)) buf[0] = 0;
    std::fclose(f);
  }
  std::string s = buf;
  return s.substr(0, s.find(' ', s.find(' ', s.find(' ') + 1) + 1));
}

// Sleeps until the deadline unless the child exits first (then Finish*
// reports it).
void RunFor(const LiveRecording& live, int64_t duration_ns) {
  ExitedBy(live.child, live.ready_ns + duration_ns);
}

// The default set and the default set plus pressure and one --pid, side
// by side at 10 ms for the same time.
void RunExtraCollectors(const Env& env, const Plan& plan, Results& r) {
  std::fprintf(stderr, "%.0f s at 10 ms: default collectors beside +pressure +pid +cgroup ...\n",
               plan.run_10_ns / 1e9);
  std::vector<std::string> extra = {"--record-pressure", "--pid", std::to_string(getpid())};
  r.extra_files = 2;
  r.default_files = 4 + static_cast<int>(CpuFineFiles().size());
  for (const char* f : {"cpu", "io", "memory", "irq"})
    r.extra_files += fs::exists(std::string("/proc/pressure/") + f) ? 1 : 0;
  // One cgroup: the v2 root group (or none on a v1-only host).
  for (const char* group : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
    if (!fs::exists(std::string(group) + "/cgroup.controllers")) continue;
    extra.insert(extra.end(), {"--cgroup", group});
    for (const char* f : {"cpu.stat", "io.stat", "memory.current", "memory.stat",
                          "cpu.pressure", "io.pressure", "memory.pressure"})
      r.extra_files += fs::exists(std::string(group) + "/" + f) ? 1 : 0;
    break;
  }
  LiveRecording base = StartRecording(env, "base10.pgr.gz", 10 * kMs);
  LiveRecording more = StartRecording(env, "extra10.pgr.gz", 10 * kMs, extra);
  RunFor(more, plan.run_10_ns);
  r.run_10_base = FinishRecording(base);
  r.run_10_extra = FinishRecording(more);
}

// The default set and it plus `args` (whose files beyond the default
// set's are `files`), each recorder beside a floor sampler of its files,
// all four for the same time.
BesideFloor RunBesideFloor(const Env& env, const Plan& plan, const std::string& name,
                           const std::vector<std::string>& args,
                           const std::vector<std::string>& files) {
  std::fprintf(stderr, "%.0f s at 10 ms: default collectors and +%s, each beside its floor ...\n",
               plan.run_sar_ns / 1e9, name.c_str());
  BesideFloor b;
  b.ticks = static_cast<uint64_t>(plan.run_sar_ns / (10 * kMs));
  Child floor_base = StartFloorSample(env, 10 * kMs, b.ticks);
  Child floor = StartFloorSample(env, 10 * kMs, b.ticks, files);
  LiveRecording base = StartRecording(env, name + "-base10.pgr.gz", 10 * kMs);
  LiveRecording run = StartRecording(env, name + "10.pgr.gz", 10 * kMs, args);
  RunFor(run, plan.run_sar_ns);
  b.base = FinishRecording(base);
  b.run = FinishRecording(run);
  int timeout_ms = static_cast<int>(plan.run_sar_ns / kMs) + 10'000;
  b.floor_base_cpu_s = FinishFloorSample(floor_base, timeout_ms);
  b.floor_cpu_s = FinishFloorSample(floor, timeout_ms);
  return b;
}

// The sar collectors (load, vmstat, netstat): on by default only within
// kSarDefaultTarget of their floor.
BesideFloor RunSarCollectors(const Env& env, const Plan& plan) {
  return RunBesideFloor(env, plan, "sar", {"--record-load", "--record-vmstat", "--record-netstat"},
                        {"/proc/loadavg", "/proc/stat", "/proc/vmstat", "/proc/net/snmp",
                         "/proc/net/netstat"});
}

// Threads parked until the scope ends: the bench becomes a process of
// kPidThreads threads for --pid.
class ParkedThreads {
 public:
  explicit ParkedThreads(int n) {
    for (int i = 0; i < n; ++i)
      threads_.emplace_back([this] {
        std::unique_lock lock(mutex_);
        woken_.wait(lock, [this] { return done_; });
      });
  }
  ~ParkedThreads() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    woken_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

 private:
  std::mutex mutex_;
  std::condition_variable woken_;
  bool done_ = false;
  std::vector<std::thread> threads_;
};

// --pid of this process with kPidThreads threads.
BesideFloor RunPidThreads(const Env& env, const Plan& plan) {
  ParkedThreads parked(kPidThreads - 1);
  const std::string self = "/proc/" + std::to_string(getpid());
  std::vector<std::string> files = {self + "/stat", self + "/io"};
  for (const fs::directory_entry& t : fs::directory_iterator(self + "/task"))
    files.push_back(t.path().string() + "/schedstat");
  return RunBesideFloor(env, plan, "pid" + std::to_string(kPidThreads),
                        {"--pid", std::to_string(getpid())}, files);
}

Results RunAll(const Env& env, const Plan& plan) {
  Results r;
  std::fprintf(stderr, "start/stop x%d, each beside its floors ...\n", plan.reps);
  r.start_stop = StartStop(env, plan.reps, ".pgr.gz", "1", &r.floors);
  std::fprintf(stderr, "empty runs x%d ...\n", plan.empty_reps);
  r.empty_10 = StartStop(env, plan.empty_reps, ".pgr.gz", "10ms");
  r.empty_100 = StartStop(env, plan.empty_reps, ".pgr.gz", "100ms");
  r.empty_100_zstd = StartStop(env, plan.empty_reps, ".pgr.zst", "100ms");

  std::fprintf(stderr, "%.0f s at 10 ms, v1 and v2, beside the floor sampler ...\n",
               plan.run_10_ns / 1e9);
  r.floor_10_ticks = static_cast<uint64_t>(plan.run_10_ns / (10 * kMs));
  Child floor = StartFloorSample(env, 10 * kMs, r.floor_10_ticks);
  Child floor_coarse = StartFloorSample(env, 10 * kMs, r.floor_10_ticks, {}, false);
  r.cpu_fine_files = static_cast<int>(CpuFineFiles().size());
  LiveRecording gz = StartRecording(env, "run10.pgr.gz", 10 * kMs, kV1);
  LiveRecording gz_v2 = StartRecording(env, "run10v2.pgr.gz", 10 * kMs, kV2);
  RunFor(gz_v2, plan.run_10_ns);
  r.run_10 = FinishRecording(gz);
  r.run_10_v2 = FinishRecording(gz_v2);
  int floor_timeout_ms = static_cast<int>(plan.run_100_ns / kMs) + 10'000;
  r.floor_10_cpu_s = FinishFloorSample(floor, floor_timeout_ms);
  r.floor_10_coarse_cpu_s = FinishFloorSample(floor_coarse, floor_timeout_ms);

  std::fprintf(stderr, "%.0f s at 100 ms, gzip and zstd, v1 and v2, beside the floor sampler ...\n",
               plan.run_100_ns / 1e9);
  r.floor_100_ticks = static_cast<uint64_t>(plan.run_100_ns / (100 * kMs));
  Child floor100 = StartFloorSample(env, 100 * kMs, r.floor_100_ticks);
  LiveRecording gz100 = StartRecording(env, "run100.pgr.gz", 100 * kMs, kV1);
  LiveRecording zst100 = StartRecording(env, "run100.pgr.zst", 100 * kMs, kV1);
  LiveRecording gz100_v2 = StartRecording(env, "run100v2.pgr.gz", 100 * kMs, kV2);
  LiveRecording zst100_v2 = StartRecording(env, "run100v2.pgr.zst", 100 * kMs, kV2);
  RunFor(zst100_v2, plan.run_100_ns);
  r.run_100 = FinishRecording(gz100);
  r.run_100_zstd = FinishRecording(zst100);
  r.run_100_v2 = FinishRecording(gz100_v2);
  r.run_100_zstd_v2 = FinishRecording(zst100_v2);
  r.floor_100_cpu_s = FinishFloorSample(floor100, floor_timeout_ms);

  RunExtraCollectors(env, plan, r);
  r.sar = RunSarCollectors(env, plan);
  r.pid = RunPidThreads(env, plan);
  std::fprintf(stderr, "command round-trips: %d pings, %d pause/resume pairs ...\n",
               4 * plan.cmd_pairs, plan.cmd_pairs);
  r.control = CommandLatency(env, plan.cmd_pairs, 2);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  Plan plan;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      plan = {10, 3, 1'000 * kMs, 2'000 * kMs, 50, 5'000 * kMs};
    } else {
      std::fprintf(stderr, "usage: perfmonger-bench [--quick]\n");
      return 2;
    }
  }
  std::string tmp_root;
  try {
    fs::path self_dir = fs::read_symlink("/proc/self/exe").parent_path();
    Env env{FindRecorder(self_dir), self_dir / "floor-start", self_dir / "floor-sample",
            self_dir / "floor-echo", ""};
    const char* tmpdir = std::getenv("TMPDIR");
    std::string templ = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") +
                        "/perfmonger-bench.XXXXXX";
    if (!mkdtemp(templ.data())) throw std::runtime_error(templ + ": mkdtemp failed");
    env.dir = tmp_root = templ;

    struct utsname u;
    uname(&u);
    std::printf("perfmonger-bench%s: %s\n  kernel %s, %ld CPUs, loadavg %s; recordings in "
                "%s (%s)\n\n",
                plan.reps < 100 ? " --quick" : "", env.perfmonger.c_str(), u.release,
                sysconf(_SC_NPROCESSORS_ONLN), LoadAvg().c_str(), env.dir.c_str(),
                FsName(env.dir).c_str());
    std::fflush(stdout);
    Results results = RunAll(env, plan);
    PrintTable(BuildRows(results));
    PrintDetails(results);
    std::string load = LoadAvg();
    std::printf("  loadavg at the end: %s\n", load.c_str());
    if (std::atof(load.c_str()) > 0.5 * static_cast<double>(sysconf(_SC_NPROCESSORS_ONLN)))
      std::printf("  NOTE: the machine was busy: latencies and jitter include run-queue "
                  "waits, CPU\n"
                  "        figures some cache pollution; RSS and bytes are unaffected\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfmonger-bench: error: %s\n", e.what());
    if (!tmp_root.empty()) fs::remove_all(tmp_root);
    return 1;
  }
  fs::remove_all(tmp_root);
  return 0;
}
