// perfmonger-bench-jitter: the gaps between consecutive sample timestamps
// of `perfmonger record -i 10ms`, idle and with every core busy, beside
// those of a bare timerfd loop (bench/floor_timer.cc) running at the same
// time, with and without the recorder's scheduler hint. The recorder adds
// nothing to the timer's tail when its row matches the bare loop's.
// Not a test: it prints, it does not judge CI.
//
// Usage: perfmonger-bench-jitter [--quick] (60 s per condition; --quick 5 s)
// The recorder is $PERFMONGER, else ../tools/perfmonger from this binary.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/recording.hh"
#include "bench/spawn.hh"
#include "bench/stats.hh"

namespace fs = std::filesystem;
using namespace pm::bench;

namespace {

constexpr int64_t kIntervalNs = 10'000'000;

struct Run {
  std::string name;
  std::vector<int64_t> stamps;  // monotonic ns, in order
};

std::vector<int64_t> ReadStamps(const std::string& path) {
  std::vector<int64_t> out;
  std::ifstream in(path);
  for (long long t; in >> t;) out.push_back(t);
  return out;
}

Child StartFloor(const std::string& floor, const std::string& out, bool hint) {
  std::vector<std::string> argv = {floor, std::to_string(kIntervalNs), out};
  if (hint) argv.push_back("short-slices");
  Child child = Spawn(argv);
  WaitReady(child, true, 5'000);
  return child;
}

// One condition: the recorder and both floors side by side for `seconds`.
std::vector<Run> Measure(const std::string& recorder, const std::string& floor,
                         const std::string& dir, int seconds) {
  std::string bare = dir + "/bare.txt", hinted = dir + "/hinted.txt",
              pgr = dir + "/jitter.pgr";
  Child f1 = StartFloor(floor, bare, false);
  Child f2 = StartFloor(floor, hinted, true);
  Child rec = Spawn({recorder, "record", "-i", "10ms", "--no-gzip", "-l", pgr,
                     "--ready-fd=" + std::to_string(kReadyFd),
                     "--stop-fd=" + std::to_string(kStopFd)});
  int64_t ready = WaitReady(rec, false, 5'000);
  if (ExitedBy(rec, ready + seconds * 1'000'000'000LL))
    throw std::runtime_error("the recorder exited before it was stopped");
  int64_t stop = 0;
  StopAndReap(rec, &stop);
  StopAndReap(f1, &stop);
  StopAndReap(f2, &stop);
  RecordingInfo info = ReadRecording(pgr);
  if (!info.mono_ns.empty()) info.mono_ns.pop_back();  // the stop-instant sample
  std::vector<Run> runs = {{"recorder", info.mono_ns},
                           {"bare timerfd loop", ReadStamps(bare)},
                           {"bare loop + short slices", ReadStamps(hinted)}};
  for (const std::string& p : {bare, hinted, pgr}) unlink(p.c_str());
  return runs;
}

// Every core spinning until the returned children are destroyed.
std::vector<Child> SpinAllCores() {
  std::vector<Child> spinners;
  for (long i = 0; i < sysconf(_SC_NPROCESSORS_ONLN); ++i)
    spinners.push_back(Spawn({"/bin/sh", "-c", "while :; do :; done"}));
  return spinners;
}

void PrintRuns(const char* condition, const std::vector<Run>& runs) {
  for (const Run& run : runs) {
    std::vector<double> gaps;
    for (size_t i = 1; i < run.stamps.size(); ++i)
      gaps.push_back(static_cast<double>(run.stamps[i] - run.stamps[i - 1]) / 1e6);
    std::printf("| %s | %s | %zu | %.3f | %.3f | %.3f | %.3f |\n", condition,
                run.name.c_str(), gaps.size(), Percentile(gaps, 50), Percentile(gaps, 99),
                Percentile(gaps, 99.9), Percentile(gaps, 100));
  }
}

std::string LoadAvg() {
  std::ifstream in("/proc/loadavg");
  std::string one, five;
  in >> one >> five;
  return one + " " + five;
}

std::string FindRecorder() {
  if (const char* env = std::getenv("PERFMONGER"); env && *env) return env;
  fs::path self = fs::read_symlink("/proc/self/exe").parent_path();
  return (self / ".." / "tools" / "perfmonger").lexically_normal();
}

}  // namespace

int main(int argc, char** argv) {
  int seconds = 60;
  if (argc == 2 && std::strcmp(argv[1], "--quick") == 0) {
    seconds = 5;
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: perfmonger-bench-jitter [--quick]\n");
    return 2;
  }
  std::string dir;
  try {
    fs::path self = fs::read_symlink("/proc/self/exe").parent_path();
    const char* tmpdir = std::getenv("TMPDIR");
    dir = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/perfmonger-jitter.XXXXXX";
    if (!mkdtemp(dir.data())) throw std::runtime_error(dir + ": mkdtemp failed");
    std::string recorder = FindRecorder(), floor = self / "floor-timer";
    std::fprintf(stderr, "%d s idle, then %d s with every core busy ...\n", seconds, seconds);
    std::string load_before = LoadAvg();
    std::vector<Run> idle = Measure(recorder, floor, dir, seconds);
    std::vector<Run> busy;
    {
      std::vector<Child> spinners = SpinAllCores();
      busy = Measure(recorder, floor, dir, seconds);
    }
    std::printf("gaps between consecutive timestamps at 10 ms, in ms\n\n"
                "| load | loop | gaps | p50 | p99 | p99.9 | max |\n"
                "|---|---|---|---|---|---|---|\n");
    PrintRuns("idle", idle);
    PrintRuns("busy", busy);
    std::printf("\n%ld CPUs; loadavg (1, 5 min) %s before, %s after (the busy spinners "
                "included)\n", sysconf(_SC_NPROCESSORS_ONLN), load_before.c_str(),
                LoadAvg().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perfmonger-bench-jitter: error: %s\n", e.what());
    if (!dir.empty()) fs::remove_all(dir);
    return 1;
  }
  fs::remove_all(dir);
  return 0;
}
