// perfmonger-bench-embed: what a caller of perfmonger-embed waits for, as
// a database bracketing queries would: perfmonger_start() (spawn to ready
// line read), an acknowledged perfmonger_mark() (median and p99, on one
// running recording), perfmonger_stop() (stop command to the recorder
// reaped), and start with a 1 GiB touched heap in the caller beside the
// same start without it, with the caller's next pass over that heap timed
// and its page faults counted (a fork() would fault once per page). The
// floor is a posix_spawn of floor-start
// (a static trivial program, linked as perfmonger is) to its first byte,
// measured in the same run, repetition by repetition. Not a test: it
// prints, it does not judge CI.
//
// Usage: perfmonger-bench-embed [--quick]
// The recorder is $PERFMONGER, else ../tools/perfmonger (the build tree).
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/stats.hh"
#include "perfmonger/embed.h"

extern char** environ;

namespace fs = std::filesystem;
using namespace pm::bench;

namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kHeapBytes = size_t{1} << 30, kPage = 4096;

struct Plan {
  int reps = 50;        // start/stop beside the floor
  int marks = 1000;     // acknowledged marks on one recording
  int heap_reps = 10;   // starts with and without the 1 GiB heap
};

struct Env {
  std::string perfmonger, floor_start, dir;
};

struct Figures {
  std::vector<double> floor_ms, start_ms, stop_ms, mark_ms, ping_ms;
  // CPU time the caller spends inside perfmonger_mark(): what a phase's
  // recorded CPU (record_caller) holds beyond the caller's own work.
  std::vector<double> mark_cpu_us;
  std::vector<double> start_empty_ms, start_heap_ms, floor_cold_ms, floor_heap_ms;
  std::vector<double> pass_before_ms, pass_after_ms, faults_before, faults_after;
};

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

[[noreturn]] void Fail(const std::string& what, perfmonger_recording* rec = nullptr) {
  throw std::runtime_error(what + (rec ? std::string(": ") + perfmonger_error(rec) : ""));
}

// posix_spawn of floor-start to its byte on fd 3.
double FloorMs(const Env& env) {
  int p[2];
  if (pipe2(p, O_CLOEXEC) != 0) Fail("pipe2");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, p[1], 3);
  char* argv[] = {const_cast<char*>(env.floor_start.c_str()), nullptr};
  auto t0 = Clock::now();
  pid_t pid;
  int err = posix_spawn(&pid, argv[0], &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(p[1]);
  if (err != 0) Fail("posix_spawn " + env.floor_start + ": " + std::strerror(err));
  char byte;
  ssize_t n = read(p[0], &byte, 1);
  double ms = MsSince(t0);
  close(p[0]);
  waitpid(pid, nullptr, 0);
  if (n != 1) Fail("floor-start wrote nothing");
  return ms;
}

perfmonger_recording* Start(const Env& env, const std::string& name, double* ms) {
  std::string out = env.dir + "/" + name;
  perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  opt.output = out.c_str();
  opt.interval = "1";
  opt.perfmonger = env.perfmonger.c_str();
  perfmonger_recording* rec = perfmonger_new();
  auto t0 = Clock::now();
  if (perfmonger_start(rec, &opt) != 0) Fail("start", rec);
  if (ms) *ms = MsSince(t0);
  return rec;
}

double Stop(perfmonger_recording* rec) {
  auto t0 = Clock::now();
  int complete = 0;
  if (perfmonger_stop(rec, nullptr, &complete) != 0 || !complete) Fail("stop", rec);
  double ms = MsSince(t0);
  perfmonger_free(rec);
  return ms;
}

long MinorFaults() {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// One write per page, timed; the minor faults it took in *faults.
double HeapPass(char* heap, double* faults) {
  long before = MinorFaults();
  auto t0 = Clock::now();
  for (size_t i = 0; i < kHeapBytes; i += kPage) heap[i]++;
  double ms = MsSince(t0);
  *faults = static_cast<double>(MinorFaults() - before);
  return ms;
}

void StartStop(const Env& env, const Plan& plan, Figures& f) {
  for (int i = 0; i < plan.reps; ++i) {
    f.floor_ms.push_back(FloorMs(env));
    double ms = 0;
    perfmonger_recording* rec = Start(env, Fmt("q%d.pgr.gz", i), &ms);
    f.start_ms.push_back(ms);
    f.stop_ms.push_back(Stop(rec));
  }
}

double ProcessCpuUs() {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) / 1e3;
}

void Marks(const Env& env, const Plan& plan, Figures& f) {
  perfmonger_recording* rec = Start(env, "marks.pgr.gz", nullptr);
  for (int i = 0; i < plan.marks; ++i) {
    std::string label = Fmt("q%d", i);
    auto t0 = Clock::now();
    double cpu0 = ProcessCpuUs();
    if (perfmonger_mark(rec, label.c_str()) != 0) Fail("mark", rec);
    f.mark_cpu_us.push_back(ProcessCpuUs() - cpu0);
    f.mark_ms.push_back(MsSince(t0));
    t0 = Clock::now();
    if (perfmonger_ping(rec) != 0) Fail("ping", rec);
    f.ping_ms.push_back(MsSince(t0));
  }
  Stop(rec);
}

// Walks `bytes` at `mem` a byte per page: no cache or TLB entry of before
// survives it. Every timed spawn below follows such a walk, so that a
// start after a pass over the heap is set beside one as cold.
void Cool(char* mem, size_t bytes) {
  for (size_t i = 0; i < bytes; i += kPage) mem[i]++;
}

char* Touched(size_t bytes) {
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) Fail("mmap");
  std::memset(mem, 1, bytes);
  return static_cast<char*>(mem);
}

// Starts (and floors) without the heap, then with it: touched once, as a
// database touches its buffers long before a query. The first spawn after
// touching fresh memory pays a one-off in the kernel (posix_spawn alike):
// an untimed spawn takes it.
void Heap(const Env& env, const Plan& plan, Figures& f) {
  constexpr size_t kScratch = 64u << 20;  // beyond any cache
  char* scratch = Touched(kScratch);
  for (int i = 0; i < plan.heap_reps; ++i) {
    Cool(scratch, kScratch);
    f.floor_cold_ms.push_back(FloorMs(env));
    Cool(scratch, kScratch);
    double ms = 0;
    perfmonger_recording* rec = Start(env, "empty.pgr.gz", &ms);
    f.start_empty_ms.push_back(ms);
    Stop(rec);
  }
  munmap(scratch, kScratch);
  char* heap = Touched(kHeapBytes);
  FloorMs(env);
  double faults = 0;
  for (int i = 0; i < plan.heap_reps; ++i) {
    Cool(heap, kHeapBytes);
    f.floor_heap_ms.push_back(FloorMs(env));
    f.pass_before_ms.push_back(HeapPass(heap, &faults));
    f.faults_before.push_back(faults);
    double ms = 0;
    perfmonger_recording* rec = Start(env, "heap.pgr.gz", &ms);
    f.start_heap_ms.push_back(ms);
    f.pass_after_ms.push_back(HeapPass(heap, &faults));
    f.faults_after.push_back(faults);
    Stop(rec);
  }
  munmap(heap, kHeapBytes);
}

std::vector<Row> BuildRows(const Figures& f) {
  double floor = Median(f.floor_ms), start = Median(f.start_ms);
  double mark_p99 = Percentile(f.mark_ms, 99);
  double empty = Median(f.start_empty_ms), heap = Median(f.start_heap_ms);
  double before = Median(f.pass_before_ms), after = Median(f.pass_after_ms);
  return {
      {"start, median", Fmt("%.2f ms", start), Fmt("%.2f ms posix_spawn floor", floor),
       Fmt("%.2fx", start / floor), "<=1.2x", Check(start <= 1.2 * floor)},
      {"start, p99", Fmt("%.2f ms", Percentile(f.start_ms, 99)),
       Fmt("%.2f ms", Percentile(f.floor_ms, 99)), "-", "-", Verdict::kInfo},
      {"stop, median (p99)",
       Fmt("%.2f ms (%.2f)", Median(f.stop_ms), Percentile(f.stop_ms, 99)), "-", "-", "-",
       Verdict::kInfo},
      {"acknowledged mark, median", Fmt("%.3f ms", Median(f.mark_ms)), "-", "-", "-",
       Verdict::kInfo},
      {"acknowledged mark, p99", Fmt("%.3f ms", mark_p99), "-", "-", "<=0.5 ms",
       Check(mark_p99 <= 0.5)},
      {"caller CPU in a mark, median (p99)",
       Fmt("%.1f us (%.1f)", Median(f.mark_cpu_us), Percentile(f.mark_cpu_us, 99)), "-", "-",
       "<=50 us", Check(Percentile(f.mark_cpu_us, 99) <= 50)},
      {"ping, median (p99)",
       Fmt("%.3f ms (%.3f)", Median(f.ping_ms), Percentile(f.ping_ms, 99)), "-", "-", "-",
       Verdict::kInfo},
      {"start with 1 GiB touched heap", Fmt("%.2f ms", heap), Fmt("%.2f ms without", empty),
       Fmt("%.2fx", heap / empty), "<=1.2x", Check(heap <= 1.2 * empty)},
      {"floor with that heap", Fmt("%.2f ms", Median(f.floor_heap_ms)),
       Fmt("%.2f ms without", Median(f.floor_cold_ms)),
       Fmt("%.2fx", Median(f.floor_heap_ms) / Median(f.floor_cold_ms)),
       "-", Verdict::kInfo},
      {"heap pass after that start", Fmt("%.1f ms, %.0f faults", after, Median(f.faults_after)),
       Fmt("%.1f ms, %.0f after floor", before, Median(f.faults_before)),
       Fmt("%.2fx", after / before), "unchanged",
       Check(after <= 1.2 * before && Median(f.faults_after) <= Median(f.faults_before) + 64)},
  };
}

}  // namespace

int main(int argc, char** argv) {
  Plan plan;
  if (argc == 2 && std::strcmp(argv[1], "--quick") == 0) {
    plan = {10, 200, 3};
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: perfmonger-bench-embed [--quick]\n");
    return 2;
  }
  std::string dir;
  try {
    fs::path self = fs::read_symlink("/proc/self/exe").parent_path();
    const char* pm = std::getenv("PERFMONGER");
    Env env{pm && *pm ? pm : (self / ".." / "tools" / "perfmonger").lexically_normal().string(),
            self / "floor-start", ""};
    std::string templ = fs::temp_directory_path() / "perfmonger-bench-embed.XXXXXX";
    if (!mkdtemp(templ.data())) Fail("mkdtemp " + templ);
    env.dir = dir = templ;
    std::printf("perfmonger-bench-embed%s: %s, recordings in %s\n\n",
                plan.reps < 50 ? " --quick" : "", env.perfmonger.c_str(), env.dir.c_str());
    Figures f;
    std::fprintf(stderr, "start/stop x%d beside posix_spawn of floor-start ...\n", plan.reps);
    StartStop(env, plan, f);
    std::fprintf(stderr, "%d acknowledged marks and pings ...\n", plan.marks);
    Marks(env, plan, f);
    std::fprintf(stderr, "start without and with 1 GiB of touched heap x%d ...\n",
                 plan.heap_reps);
    Heap(env, plan, f);
    PrintTable(BuildRows(f));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfmonger-bench-embed: error: %s\n", e.what());
    if (!dir.empty()) fs::remove_all(dir);
    return 1;
  }
  fs::remove_all(dir);
  return 0;
}
