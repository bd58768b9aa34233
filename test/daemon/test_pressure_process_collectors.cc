// The pressure and process collectors on scratch copies of a fake /proc
// tree: what the header declares, the sample arrays, a file the kernel
// lacks, a line or a process that goes away, and the setup errors.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/collect/collector_set.hh"
#include "test/daemon/test_util.hh"

using pm::CollectorOptions;
using pm::CollectorSet;
using pm::test::OpenDir;
using pm::test::TempDir;
using pm::test::WriteFile;

namespace {

CollectorOptions Only(std::string_view name) {
  CollectorOptions o;
  o.enabled.assign(o.enabled.size(), false);
  o.on(name) = true;
  return o;
}

CollectorSet Open(const std::filesystem::path& root, const CollectorOptions& opts) {
  auto fd = OpenDir(root);
  return CollectorSet(fd.Get(), opts);
}

std::string Sample(CollectorSet& set) {
  std::string line = "{\"t\":1";
  set.AppendSample(line);
  return line.substr(6);
}

void WritePressure(const std::filesystem::path& root, const std::string& resource,
                   uint64_t some, const char* full) {
  std::string text = "some avg10=0.00 avg60=0.00 avg300=0.00 total=" + std::to_string(some) + "\n";
  if (full) text += std::string("full avg10=0.00 avg60=0.00 avg300=0.00 total=") + full + "\n";
  WriteFile(root / "proc/pressure" / resource, text);
}

// A process 42 with utime 3, stime 7, cutime 11, cstime 13 ticks, 2
// threads (one listed: the other exited unseen), 5 pages resident; its
// thread ran 123456789 ns and waited 2345 ns.
void WriteProcess(const std::filesystem::path& root, const std::string& pid, uint64_t wbytes) {
  WriteFile(root / "proc" / pid / "stat",
            pid + " (sh (x)) S 1 42 42 0 -1 0 17 0 19 0 3 7 11 13 20 0 2 0 1 2 5\n");
  WriteFile(root / "proc" / pid / "task" / pid / "schedstat", "123456789 2345 6\n");
  WriteFile(root / "proc" / pid / "io",
            "rchar: 100\nwchar: 200\nsyscr: 3\nsyscw: 4\nread_bytes: 4096\nwrite_bytes: " +
                std::to_string(wbytes) + "\ncancelled_write_bytes: 0\n");
}

const std::string kProcsFields =
    R"("fields":["utime_us","stime_us","cutime_us","cstime_us","rchar","wchar",)"
    R"("read_bytes","write_bytes","syscr","syscw","cpu_ns","run_wait_ns","minflt","majflt",)"
    R"("ctxsw","num_threads","rss_kb"])";

// Where each CPU column comes from: below a fake root the threads'
// schedstat (there is no clock of the tree's process), on "/" the clock.
std::string Sources(bool real_root) {
  std::string tick = std::to_string(1'000'000'000 / sysconf(_SC_CLK_TCK));
  return R"(,"sources":[{"fields":["utime_us","stime_us","cutime_us","cstime_us"],)"
         R"("file":"/proc/PID/stat","resolution_ns":)" + tick +
         (real_root ? R"(},{"fields":["cpu_ns"],"file":"process CPU clock","resolution_ns":1},)"
                      R"({"fields":["run_wait_ns"],)"
                    : R"(},{"fields":["cpu_ns","run_wait_ns"],)") +
         R"("file":"/proc/PID/task/*/schedstat","resolution_ns":1}])";
}

std::string Row(uint64_t wbytes) {
  uint64_t us = 1'000'000 / static_cast<uint64_t>(sysconf(_SC_CLK_TCK));
  uint64_t kb = static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) / 1024;
  return "[" + std::to_string(3 * us) + "," + std::to_string(7 * us) + "," +
         std::to_string(11 * us) + "," + std::to_string(13 * us) + ",100,200,4096," +
         std::to_string(wbytes) + ",3,4,123456789,2345,17,19,6,2," + std::to_string(5 * kb) + "]";
}

}  // namespace

TEST_SUITE("pressure and process collectors") {

TEST_CASE("pressure: one row per line present at the start; a missing file is named") {
  TempDir tree("proc-small");
  WritePressure(tree.path(), "cpu", 500, nullptr);  // a kernel before 5.13: no full
  WritePressure(tree.path(), "io", 70, "30");
  WritePressure(tree.path(), "memory", 0, "0");     // no irq file (before 6.1)
  CollectorSet set = Open(tree.path(), Only("pressure"));
  CHECK(set.DescribeJson() ==
        R"({"pressure":{"fields":["total_us"],"rows":["cpu.some","io.some","io.full",)"
        R"("memory.some","memory.full"],"absent":["irq"]}})");
  CHECK(Sample(set) == R"(,"pressure":[[500],[70],[30],[0],[0]])");
  // A line that disappears is null, not 0 (which would read as no stall).
  WritePressure(tree.path(), "io", 90, nullptr);
  CHECK(Sample(set) == R"(,"pressure":[[500],[90],null,[0],[0]])");
}

TEST_CASE("pressure: a kernel without PSI records an empty member") {
  TempDir tree("proc-small");
  CollectorSet set = Open(tree.path(), Only("pressure"));
  CHECK(set.DescribeJson() ==
        R"({"pressure":{"fields":["total_us"],"rows":[],"absent":["cpu","io","memory","irq"]}})");
  CHECK(Sample(set) == R"(,"pressure":[])");
}

TEST_CASE("procs: --pid rows in the order given, CPU ticks as microseconds, rss in kB") {
  TempDir tree("proc-small");
  WriteProcess(tree.path(), "42", 8192);
  WriteProcess(tree.path(), "7", 0);
  CollectorOptions o = Only("procs");
  o.values_of("procs") = {"42", "7"};
  CollectorSet set = Open(tree.path(), o);
  // Each row labelled with its comm, as /proc/PID/stat names it.
  CHECK(set.DescribeJson() == R"({"procs":{)" + kProcsFields +
                                  R"j(,"rows":["42","7"],"labels":{"comm":["sh (x)","sh (x)"]})j" +
                                  Sources(false) + "}}");
  CHECK(Sample(set) == R"(,"procs":[)" + Row(8192) + "," + Row(0) + "]");
  WriteProcess(tree.path(), "42", 16384);
  CHECK(Sample(set) == R"(,"procs":[)" + Row(16384) + "," + Row(0) + "]");
}

TEST_CASE("procs: a process that exits is null from then on; the others go on") {
  TempDir tree("proc-small");
  WriteProcess(tree.path(), "42", 1);
  WriteProcess(tree.path(), "7", 2);
  CollectorOptions o = Only("procs");
  o.values_of("procs") = {"42", "7"};
  CollectorSet set = Open(tree.path(), o);
  Sample(set);
  WriteFile(tree.path() / "proc/42/stat", "");  // what a reaped process reads as here
  CHECK(Sample(set) == R"(,"procs":[null,)" + Row(2) + "]");
  WriteProcess(tree.path(), "42", 1);  // the same pid again is not the same process
  CHECK(Sample(set) == R"(,"procs":[null,)" + Row(2) + "]");
}

TEST_CASE("procs: a row that stops making sense is null from then on, never the recording's end") {
  TempDir tree("proc-small");
  WriteProcess(tree.path(), "42", 1);
  WriteProcess(tree.path(), "7", 2);
  CollectorOptions o = Only("procs");
  o.values_of("procs") = {"42", "7"};
  CollectorSet set = Open(tree.path(), o);
  // The pinned files are rewritten in place (a new file would be a new process).
  auto rewrite = [&](const std::string& file, const std::string& text) {
    pm::UniqueFd fd = pm::OpenAt(OpenDir(tree.path()).Get(), file, O_WRONLY | O_TRUNC);
    REQUIRE(write(fd.Get(), text.data(), text.size()) == static_cast<ssize_t>(text.size()));
  };
  // A name with a newline is a name: the row still reads.
  rewrite("proc/42/stat", "42 (sh\n(x)) S 1 42 42 0 -1 0 17 0 19 0 3 7 11 13 20 0 2 0 1 2 5\n");
  CHECK(Sample(set) == R"(,"procs":[)" + Row(1) + "," + Row(2) + "]");
  rewrite("proc/42/stat", "42 (sh) S garbage\n");
  CHECK(Sample(set) == R"(,"procs":[null,)" + Row(2) + "]");
  rewrite("proc/7/io", "rchar: lots\n");
  CHECK(Sample(set) == R"(,"procs":[null,null])");
  CHECK(Sample(set) == R"(,"procs":[null,null])");
}

TEST_CASE("procs: a thread that exits keeps the time it was last read with") {
  TempDir tree("proc-small");
  WriteProcess(tree.path(), "42", 1);
  WriteFile(tree.path() / "proc/42/task/43/schedstat", "1000 20 1\n");
  CollectorOptions o = Only("procs");
  o.values_of("procs") = {"42"};
  CollectorSet set = Open(tree.path(), o);
  auto times = [&] {  // cpu_ns and run_wait_ns of the row
    std::string line = Sample(set);
    size_t at = line.find(",3,4,") + 5;
    return line.substr(at, line.find(',', line.find(',', at) + 1) - at);
  };
  CHECK(times() == "123457789,2365");
  WriteFile(tree.path() / "proc/42/task/43/schedstat", "5000 70 2\n");
  CHECK(times() == "123461789,2415");
  std::filesystem::remove_all(tree.path() / "proc/42/task/43");
  CHECK(times() == "123461789,2415");  // its last reading stands
  WriteFile(tree.path() / "proc/42/task/44/schedstat", "10 1 1\n");
  CHECK(times() == "123461799,2416");  // a new thread adds from its start
}

TEST_CASE("procs: a pid that does not exist, or is not a pid, is a setup error") {
  TempDir tree("proc-small");
  struct Case { const char* pid; const char* error; };
  const Case cases[] = {
      {"4242", "--pid 4242: no such process (no /proc/4242); name a running process"},
      {"12x", "--pid '12x': not a process id (write e.g. --pid 1234)"},
      {"0", "--pid '0': not a process id (write e.g. --pid 1234)"},
      {"-5", "--pid '-5': not a process id (write e.g. --pid 1234)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.pid);
    CollectorOptions o = Only("procs");
    o.values_of("procs") = {c.pid};
    CHECK_THROWS_WITH_AS(Open(tree.path(), o), c.error, pm::UsageError);
  }
}

TEST_CASE("procs: stat's command row is zeros until bound, then follows the real process") {
  CollectorOptions o = Only("procs");
  o.command_process = true;
  o.command_comm = "make";
  CollectorSet set = Open("/", o);
  CHECK(set.DescribeJson() == R"({"procs":{)" + kProcsFields +
                                  R"(,"rows":["cmd"],"labels":{"comm":["make"]})" + Sources(true) +
                                  "}}");
  CHECK(Sample(set) == R"(,"procs":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]])");
  set.BindCommand(static_cast<int>(getpid()));
  std::string bound = Sample(set);
  CHECK(bound.find("null") == std::string::npos);
  CHECK(bound != R"(,"procs":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]])");  // this test has read files
}

TEST_CASE("procs: a command not in the root (a fake tree) is null") {
  TempDir tree("proc-small");
  CollectorOptions o = Only("procs");
  o.command_process = true;
  CollectorSet set = Open(tree.path(), o);
  set.BindCommand(999999);
  CHECK(Sample(set) == R"(,"procs":[null])");
}

}  // TEST_SUITE

#include "daemon/collect/process_scan.hh"

TEST_SUITE("process scan") {

TEST_CASE("the scan of everyone else: one row per process of the tree, as pgr(5) says") {
  TempDir tree("proc-small");
  WriteProcess(tree.path(), "42", 8192);
  WriteFile(tree.path() / "proc/42/cgroup", "0::/user.slice/noise\n");
  pm::UniqueFd root = OpenDir(tree.path());
  pm::ProcessScan scan(root.Get());
  std::string out;
  scan.Append(out);
  // Below a fake root: CPU from the ticks (3 + 7), in ns.
  const uint64_t tick_ns = 1'000'000'000 / static_cast<uint64_t>(sysconf(_SC_CLK_TCK));
  CHECK(out == "[[42,1,1," + std::to_string(getuid()) + "," + std::to_string(10 * tick_ns) +
                   ",4096,8192,\"sh (x)\",\"/user.slice/noise\"]]");
  // Gone: left out; an unreadable io: null bytes.
  std::filesystem::remove(tree.path() / "proc/42/io");
  WriteProcess(tree.path(), "43", 0);
  std::filesystem::remove(tree.path() / "proc/43/stat");
  out.clear();
  scan.Append(out);
  CHECK(out.find(",null,null,\"sh (x)\",\"/user.slice/noise\"]") != std::string::npos);
  CHECK(out.find("[43,") == std::string::npos);
}

// A child blocked on a pipe; each byte written to `wake` makes it burn
// 2 ms of CPU and answer on `done` before it blocks again.
struct IdleChild {
  int wake[2], done[2];
  pid_t pid;
  IdleChild() {
    REQUIRE(pipe(wake) == 0);
    REQUIRE(pipe(done) == 0);
    pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) Serve();
    close(wake[0]), close(done[1]);
    Blocked();
  }
  ~IdleChild() {
    close(wake[1]), close(done[0]);
    waitpid(pid, nullptr, 0);
  }
  [[noreturn]] void Serve() {
    close(wake[1]), close(done[0]);  // else its read() never sees the end
    char c;
    while (read(wake[0], &c, 1) == 1) {
      timespec t0, t;
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
      do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
      while ((t.tv_sec - t0.tv_sec) * 1'000'000'000L + t.tv_nsec - t0.tv_nsec < 2'000'000);
      if (write(done[1], "y", 1) != 1) break;
    }
    _exit(0);
  }
  void Work() {
    char c;
    REQUIRE(write(wake[1], "x", 1) == 1);
    REQUIRE(read(done[0], &c, 1) == 1);
    Blocked();
  }
  // Until it sleeps in read(): its clock stands still from then on.
  void Blocked() const {
    const std::string stat = "/proc/" + std::to_string(pid) + "/stat";
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    std::string text;
    while (std::chrono::steady_clock::now() < deadline) {
      std::ifstream in(stat);
      std::getline(in, text);
      size_t paren = text.rfind(')');
      if (paren != std::string::npos && text.compare(paren + 2, 1, "S") == 0) return;
    }
    FAIL("the child never blocked: " << text);
  }
};

// The row of `pid` in a scan's array ("" when absent).
std::string RowOf(const std::string& scan, pid_t pid) {
  const std::string head = "[" + std::to_string(pid) + ",";
  size_t at = scan.find(head);
  if (at == std::string::npos) return "";
  return scan.substr(at, scan.find(']', at) - at + 1);
}

std::string Scan(pm::ProcessScan& scan) {
  std::string out;
  scan.Append(out);
  return out;
}

TEST_CASE("ProcessScan on /proc: an idle process's row is the last scan's, a busy one is read again") {
  IdleChild child;
  pm::UniqueFd root = OpenDir("/");
  pm::ProcessScan scan(root.Get());
  const std::string first = RowOf(Scan(scan), child.pid);
  REQUIRE(first != "");
  CHECK(RowOf(Scan(scan), child.pid) == first);
  pm::ProcessScan unseen(root.Get());  // one that must read every process
  CHECK(RowOf(Scan(unseen), child.pid) == first);
  child.Work();
  pm::ProcessScan fresh(root.Get());
  const std::string moved = RowOf(Scan(fresh), child.pid);
  CHECK(moved != first);
  CHECK(RowOf(Scan(scan), child.pid) == moved);
}

TEST_CASE("CgroupV2Path: the 0:: line's path, whatever v1 lines come first") {
  CHECK(pm::CgroupV2Path("0::/a/b\n") == "/a/b");
  CHECK(pm::CgroupV2Path("12:cpu,cpuacct:/x\n0::/\n") == "/");
  CHECK(pm::CgroupV2Path("12:cpu:/x\n") == "");
  CHECK(pm::CgroupV2Path("") == "");
}

}
