// The process table (record --record-procs, issue 48) on this machine's
// real /proc: beside 1,000 sleeping processes (children of the test,
// asleep before the recording starts, killed at the end) and a few busy
// ones started inside it, every procs line names no sleeper, each busy
// one is a row with its CPU time, one reaped is listed as exited, and
// `summary --top 5` names the busiest with the CPU the kernel counted for
// each pid (its schedstat, read before the reap), within 2 %.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "test/process/load_helper.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

// Asleep in sleep(1) itself: its comm is "sleep" and its state S.
bool Asleep(pid_t pid) {
  std::string text = ReadFileBytes("/proc/" + std::to_string(pid) + "/stat");
  size_t close = text.rfind(')');
  return text.find("(sleep)") != std::string::npos && close != std::string::npos &&
         close + 2 < text.size() && text[close + 2] == 'S';
}

std::vector<Child> StartSleepers(size_t n) {
  std::vector<Child> sleepers;
  sleepers.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    SpawnOptions o;
    o.program = "/bin/sleep";
    o.args = {"3600"};
    sleepers.emplace_back(std::move(o));
  }
  const Deadline deadline = After(std::chrono::seconds(120));
  for (const Child& c : sleepers)
    while (!Asleep(c.pid()))
      if (std::chrono::steady_clock::now() > deadline) throw DeadlineExpired("sleepers asleep");
  return sleepers;
}

struct Table {
  std::map<int64_t, double> cpu_s;  // by pid, summed over the rows
  std::set<int64_t> seen, exited;
  size_t lines = 0;
};

Table ReadTable(const std::string& path) {
  Table t;
  for (const std::string& line : ReadRecording(path).lines) {
    if (line.find("\"event\":\"procs\"") == std::string::npos) continue;
    Json json(line);
    ++t.lines;
    for (const JsonValue& row : json.root()["rows"].array()) {
      const int64_t pid = int64_t(row.at(0));
      t.seen.insert(pid);
      t.cpu_s[pid] += double(int64_t(row.at(5))) / 1e9;
    }
    for (const JsonValue& pid : json.root()["exited"].array()) t.exited.insert(int64_t(pid));
  }
  return t;
}

TEST_SUITE("process table") {
  TEST_CASE("1,000 sleepers write nothing; the busy ones are rows with the kernel's CPU") {
    TempDir dir;
    const std::string path = dir / "procs.pgr";
    std::vector<Child> sleepers = StartSleepers(1000);
    CommandSession s({"record", "-i", "0.2", "-l", path, "--record-procs"});
    s.ReadReadyLine();
    std::vector<std::unique_ptr<LoadHelper>> busy;
    for (int i = 0; i < 3; ++i) busy.push_back(std::make_unique<LoadHelper>(dir / "unused"));
    for (int round = 0; round < 2; ++round)
      for (auto& b : busy) REQUIRE(b->Do('c') == 'c');  // 1 s of CPU each
    LoadHelper exiter(dir / "unused");
    REQUIRE(exiter.Do('c') == 'c');
    // A scan once it is idle: a process's CPU after its last scan is lost
    // when it exits (it goes to the brief row).
    REQUIRE(bool(s.Command("sample").root()["ok"]));
    const pid_t exiter_pid = exiter.pid();
    std::map<int64_t, double> kernel;
    kernel[exiter_pid] = KernelCpuSeconds(exiter_pid);
    exiter.End();  // reaped: the next line lists it as exited
    for (auto& b : busy) kernel[b->pid()] = KernelCpuSeconds(b->pid());
    REQUIRE(bool(s.Command("stop").root()["ok"]));
    REQUIRE(s.Wait().code == 0);

    const Table t = ReadTable(path);
    CHECK(t.lines >= 2);
    for (const Child& c : sleepers) {
      CAPTURE(c.pid());
      CHECK(t.seen.count(c.pid()) == 0);
    }
    for (const auto& [busy_pid, cpu] : kernel) {
      const int64_t pid = busy_pid;  // doctest's CAPTURE takes a reference: not to a binding
      CAPTURE(pid);
      REQUIRE(t.cpu_s.count(pid) == 1);
      CHECK(std::abs(t.cpu_s.at(pid) - cpu) <= 0.02 * cpu);
    }
    CHECK(t.exited.count(exiter_pid) == 1);

    ExitResult r = Run({"summary", "--top", "5", "--json", path});
    REQUIRE(r.code == 0);
    Json summary(r.out);
    const std::vector<JsonValue>& top = summary.root()["top"]["cpu"].array();
    REQUIRE(top.size() == 5);
    const double fifth = double(top.back()["cpu_s"]);
    for (const auto& [busy_pid, cpu] : kernel) {
      const int64_t pid = busy_pid;
      CAPTURE(pid);
      const JsonValue* named = nullptr;
      for (const JsonValue& p : top)
        if (int64_t(p["pid"]) == pid) named = &p;
      // Named if clearly busier than the fifth (beyond the 2 % the table
      // may differ from the kernel by); near it, or below, a neighbour of
      // this machine may rank before it.
      if (cpu <= fifth * 1.02) continue;
      REQUIRE(named != nullptr);
      CHECK(std::string_view((*named)["comm"]) == "load_helper");
      CHECK(std::abs(double((*named)["cpu_s"]) - cpu) <= 0.02 * cpu);
    }
    r = Run({"summary", "--top", "5", path});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("Busiest processes by CPU (5 of ") != std::string::npos);
    // The same busiest first, its pid and comm as the JSON named it.
    const std::string first = std::to_string(int64_t(top[0]["pid"])) + " ";
    CHECK(r.out.find(first + std::string(std::string_view(top[0]["comm"]))) != std::string::npos);
    for (auto& b : busy) b->End();
  }

  TEST_CASE("summary --top: a count from 1 to 1000, and a recording without the table says so") {
    ExitResult r = Run({"summary", "--top", "0", "x.pgr"});
    CHECK(r.code == 1);
    CHECK(r.err.find("--top '0': write a count from 1 to 1000 (e.g. --top 5)") !=
          std::string::npos);
    TempDir dir;
    ExitResult rec = Run({"record", "-i", "0.1", "-t", "0.25", "-l", dir / "plain.pgr"});
    REQUIRE(rec.code == 0);
    r = Run({"summary", "--top", "3", dir / "plain.pgr"});
    CHECK(r.code == 0);
    CHECK(r.out.find("No process table (record with --record-procs)") != std::string::npos);
  }
}

}  // namespace
}  // namespace pm::test
