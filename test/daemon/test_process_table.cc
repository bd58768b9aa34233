// The process table (record --record-procs): its parsers as tables, and
// the table itself on this machine's /proc: a process that runs is a row
// with its CPU time, one asleep is not, one reaped is listed as exited.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>

#include "common/io.hh"
#include "common/unique_fd.hh"
#include "daemon/collect/parse_proc_table.hh"
#include "daemon/collect/process_table.hh"

namespace pm {
namespace {

TEST_CASE("CmdlineStart: NULs between arguments become spaces, cut to the bound") {
  using namespace std::string_literals;
  CHECK(CmdlineStart("sleep\0003600\0"s, 64) == "sleep 3600");
  CHECK(CmdlineStart(""s, 64) == "");
  CHECK(CmdlineStart("\0\0"s, 64) == "");
  CHECK(CmdlineStart("/usr/bin/python3\0-c\0print(1)\0"s, 10) == "/usr/bin/p");
  CHECK(CmdlineStart("a b\0c\0"s, 64) == "a b c");  // a space inside an argument stays
}

TEST_CASE("CgroupPath: v2, else v1's cpu hierarchy, else empty") {
  CHECK(CgroupPath("0::/user.slice/session-1.scope\n") == "/user.slice/session-1.scope");
  CHECK(CgroupPath("12:memory:/m\n3:cpu,cpuacct:/docker/abc\n1:name=systemd:/s\n") ==
        "/docker/abc");
  CHECK(CgroupPath("4:cpuacct,cpu:/x\n") == "/x");
  CHECK(CgroupPath("4:cpuset:/x\n5:cpuacct:/y\n") == "");  // cpuacct alone is not cpu
  CHECK(CgroupPath("3:cpu:/a\n0::/b\n") == "/b");          // hybrid: v2 first
  CHECK(CgroupPath("") == "");
}

int64_t Mono() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

void BurnCpuMs(int ms) {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  const int64_t until = int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec + int64_t{ms} * 1'000'000;
  volatile uint64_t n = 0;
  do {
    for (int i = 0; i < 10000; ++i) n = n + 1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  } while (int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec < until);
}

char StateOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), {});
  size_t close = text.rfind(')');
  return close == std::string::npos || close + 2 >= text.size() ? '?' : text[close + 2];
}

// "rows":[...] of a line, and whether a row starts with pid `pid`.
bool HasRow(const std::string& line, pid_t pid) {
  size_t rows = line.find("\"rows\":[");
  size_t end = line.find("],\"exited\":");
  REQUIRE(rows != std::string::npos);
  REQUIRE(end != std::string::npos);
  const std::string part = line.substr(rows + 7, end - rows - 6);
  const std::string id = std::to_string(pid) + ",";
  return part.find("[" + id) != std::string::npos;
}

// The pids of a line's "exited":[...], as written ("1,2,3").
std::string ExitedList(const std::string& line) {
  size_t at = line.find("\"exited\":[");
  REQUIRE(at != std::string::npos);
  at += 10;
  return line.substr(at, line.find(']', at) - at);
}

TEST_CASE("ProcessTable: a busy process is a row, a sleeping one is not, a reaped one exited") {
  int fds[2];
  REQUIRE(pipe2(fds, O_CLOEXEC) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(fds[1]);  // EOF once the parent closes its end
    char c;
    while (read(fds[0], &c, 1) > 0) {
    }
    _exit(0);
  }
  close(fds[0]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (StateOf(child) != 'S') REQUIRE(std::chrono::steady_clock::now() < deadline);

  UniqueFd root = OpenAt(AT_FDCWD, "/", O_RDONLY | O_DIRECTORY);
  ProcessTable table(root.Get(), 1'000'000'000, Mono());
  std::string header;
  table.Describe(header);
  CHECK(header.find("\"proctable\":{\"fields\":[\"pid\",") != std::string::npos);
  CHECK(header.find("\"every\":") != std::string::npos);
  CHECK(table.Line(1, Mono()).empty());  // the first sample's scan: a baseline

  BurnCpuMs(30);
  const std::string line = table.Line(2, Mono());
  CAPTURE(line);
  REQUIRE(line.starts_with("{\"event\":\"procs\",\"t\":2,"));
  CHECK(line.ends_with("}\n"));
  CHECK(HasRow(line, getpid()));
  CHECK_FALSE(HasRow(line, child));

  close(fds[1]);  // the child exits; reaped here
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  const std::string after = table.Line(3, Mono());
  CAPTURE(after);
  CHECK(("," + ExitedList(after) + ",").find("," + std::to_string(child) + ",") !=
        std::string::npos);
}

}  // namespace
}  // namespace pm
