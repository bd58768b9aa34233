// perfmonger-bench-scan: the cost of the scan of everyone else (issue 47;
// daemon/collect/process_scan.hh) with about 100 and 1,000 processes
// running, and what a library caller waits for a mark whose reply carries
// its phase's cost while that many processes run: back to back (each
// mark waits for the previous one's scan) and spaced (the scan done
// before the next mark); how far each mark's scan lags its mark (the
// scan follows the reply), and the recorder's CPU while idle before and
// after the marks (nothing left running once a scan is done). Not a
// test: it prints, it does not judge CI.
//
// Usage: perfmonger-bench-scan [--quick]
// The recorder is $PERFMONGER, else ../tools/perfmonger (the build tree).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench/stats.hh"
#include "common/io.hh"
#include "daemon/collect/pid_dir.hh"
#include "daemon/collect/process_scan.hh"
#include "daemon/collect/process_table.hh"
#include "perfmonger/embed.h"

namespace fs = std::filesystem;
using namespace pm::bench;

namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double CpuMs() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int CountProcesses() {
  int n = 0;
  for (const auto& e : fs::directory_iterator("/proc"))
    n += std::isdigit(static_cast<unsigned char>(e.path().filename().string()[0])) ? 1 : 0;
  return n;
}

// Idle children (pause()) until the machine runs about `total` processes.
std::vector<pid_t> Populate(int total) {
  std::vector<pid_t> kids;
  for (int have = CountProcesses(); have < total; ++have) {
    pid_t pid = fork();
    if (pid == 0) {
      pause();
      _exit(0);
    }
    if (pid < 0) break;
    kids.push_back(pid);
  }
  return kids;
}

void Reap(std::vector<pid_t>& kids) {
  for (pid_t pid : kids) kill(pid, SIGKILL);
  for (pid_t pid : kids) waitpid(pid, nullptr, 0);
  kids.clear();
}

void ScanRows(std::vector<Row>& rows, int processes, int reps) {
  pm::UniqueFd root = pm::OpenAt(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY);
  pm::ProcessScan scan(root.Get());
  std::vector<double> wall, cpu;
  std::string out;
  size_t bytes = 0;
  for (int i = 0; i < reps; ++i) {
    out.clear();
    auto t0 = Clock::now();
    double c0 = CpuMs();
    scan.Append(out);
    cpu.push_back(CpuMs() - c0);
    wall.push_back(MsSince(t0));
    bytes = out.size();
  }
  rows.push_back({Fmt("scan of %d processes, median (p99)", processes),
                  Fmt("%.2f ms (%.2f), CPU %.2f ms", Median(wall), Percentile(wall, 99),
                      Median(cpu)),
                  Fmt("%zu bytes a scan line", bytes), "", "", Verdict::kInfo});
}

int64_t MonoNs() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

// The process table's scan a sample (record --record-procs; idle
// processes cost a read of their CPU clock, the few that ran their files)
// beside its floor, the same syscalls without the bookkeeping: the
// listing and one clock read a process.
void TableRows(std::vector<Row>& rows, int processes, int reps) {
  pm::UniqueFd root = pm::OpenAt(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY);
  pm::UniqueFd proc = pm::OpenAt(AT_FDCWD, "/proc", O_RDONLY | O_DIRECTORY);
  pm::ProcessTable table(root.Get(), 1'000'000'000, MonoNs());
  table.Line(0, MonoNs());  // the baseline
  std::vector<double> cpu, floor;  // CPU time: a busy machine stretches wall time
  std::vector<uint32_t> pids;
  size_t bytes = 0;
  for (int i = 0; i < reps; ++i) {
    double c0 = CpuMs();
    bytes = table.Line(i, MonoNs()).size();
    cpu.push_back(CpuMs() - c0);
    c0 = CpuMs();
    pm::ListPids(proc.Get(), pids);
    for (uint32_t pid : pids) pm::ProcessClockNs(pid);
    floor.push_back(CpuMs() - c0);
  }
  rows.push_back({Fmt("process table, %d processes: a sample's scan, CPU median (p99)", processes),
                  Fmt("%.2f ms (%.2f), %.2f us a process, %zu bytes a line", Median(cpu),
                      Percentile(cpu, 99), 1e3 * Median(cpu) / processes, bytes),
                  Fmt("%.2f ms (%.2f us a process)", Median(floor),
                      1e3 * Median(floor) / processes),
                  Fmt("%.2f", Median(cpu) / Median(floor)), "", Verdict::kInfo});
}

// The recorder's CPU time so far (its process CPU clock), in ms.
double RecorderCpuMs(pid_t pid) {
  clockid_t id;
  timespec t{};
  if (clock_getcpuclockid(pid, &id) != 0 || clock_gettime(id, &t) != 0) return 0;
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

// The recorder's CPU over `seconds` of no command (its 1 s samples only),
// in ms per second: waited out on a pipe nobody writes (a deadline).
double IdleCpuMsPerSec(pid_t recorder, double seconds) {
  int fds[2];
  if (pipe(fds) != 0) return 0;
  const double c0 = RecorderCpuMs(recorder);
  pollfd p = {fds[0], POLLIN, 0};
  poll(&p, 1, static_cast<int>(seconds * 1000));
  close(fds[0]), close(fds[1]);
  return (RecorderCpuMs(recorder) - c0) / seconds;
}

// The scans' lags after their marks, from a plain recording's lines.
std::vector<double> ScanLagsMs(const std::string& path) {
  std::vector<double> lags;
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (size_t at = 0; (at = text.find("\"at\":\"mark\",\"lag_ns\":", at)) != std::string::npos;) {
    at += std::strlen("\"at\":\"mark\",\"lag_ns\":");
    lags.push_back(std::strtod(text.c_str() + at, nullptr) / 1e6);
  }
  return lags;
}

// Marks with the cost in the reply, on a recording of this process.
void MarkRows(std::vector<Row>& rows, const std::string& pm, const std::string& dir,
              int processes, int marks) {
  perfmonger_recording* rec = perfmonger_new();
  struct perfmonger_options opt = PERFMONGER_OPTIONS_INIT;
  const std::string out = dir + "/marks.pgr";
  opt.output = out.c_str();
  opt.interval = "1s";
  opt.perfmonger = pm.c_str();
  opt.record_caller = 1;
  if (perfmonger_start(rec, &opt) != 0) {
    std::fprintf(stderr, "start: %s\n", perfmonger_error(rec));
    std::exit(1);
  }
  std::vector<double> back, spaced;
  struct perfmonger_cost cost = PERFMONGER_COST_INIT;
  perfmonger_ping(rec);  // the start's scan is done
  const double idle_before = IdleCpuMsPerSec(perfmonger_pid(rec), 3);
  for (int i = 0; i < 2 * marks; ++i) {
    if (i == marks) perfmonger_ping(rec);  // the last back-to-back mark's scan is done
    auto t0 = Clock::now();
    if (perfmonger_mark_cost(rec, "q", &cost) != 0) std::exit(1);
    (i < marks ? back : spaced).push_back(MsSince(t0));
    if (i >= marks) perfmonger_ping(rec);  // the scan that follows the reply is done
  }
  const double idle_after = IdleCpuMsPerSec(perfmonger_pid(rec), 3);
  perfmonger_stop(rec, nullptr, nullptr);
  std::vector<double> lags = ScanLagsMs(out);
  perfmonger_free(rec);
  rows.push_back({Fmt("mark with its cost, %d processes, spaced: median (p99)", processes),
                  Fmt("%.3f ms (%.3f)", Median(spaced), Percentile(spaced, 99)), "", "",
                  "p99 <= 0.5 ms", Check(Percentile(spaced, 99) <= 0.5)});
  rows.push_back({Fmt("mark with its cost, %d processes, back to back: median (p99)", processes),
                  Fmt("%.3f ms (%.3f)", Median(back), Percentile(back, 99)),
                  "each waits for the previous mark's scan", "", "", Verdict::kInfo});
  if (!lags.empty())
    rows.push_back({Fmt("scan's lag after its mark, %d processes: median (p99)", processes),
                    Fmt("%.3f ms (%.3f)", Median(lags), Percentile(lags, 99)),
                    "the reply is sent first", "", "", Verdict::kInfo});
  rows.push_back({Fmt("recorder CPU idle at 1 s, %d processes, before / after the marks", processes),
                  Fmt("%.3f / %.3f ms a second", idle_before, idle_after), "", "",
                  "after <= 1.2x before", Check(idle_after <= 1.2 * idle_before + 0.05)});
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const fs::path self = fs::canonical("/proc/self/exe").parent_path();
  const char* env = std::getenv("PERFMONGER");
  const std::string pm = env && *env ? env : (self / ".." / "tools" / "perfmonger").string();
  const std::string dir = fs::temp_directory_path() / ("pm-bench-scan-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::vector<Row> rows;
  for (int processes : {100, 1000}) {
    std::vector<pid_t> kids = Populate(processes);
    const int running = CountProcesses();
    ScanRows(rows, running, quick ? 20 : 200);
    TableRows(rows, running, quick ? 20 : 200);
    MarkRows(rows, pm, dir, running, quick ? 50 : 500);
    Reap(kids);
  }
  fs::remove_all(dir);
  PrintTable(rows);
  return 0;
}
