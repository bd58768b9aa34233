// A phase's system under test beside everyone else (issue 47), on this
// machine's real /proc: a neighbour the test starts inside a phase (the
// load helper, no descendant of the system under test) burns CPU and
// writes with O_DIRECT; the phase's verdict must name it, with its share
// of a core and its bytes as the kernel counted them for its pid.
#include <doctest/doctest.h>
#include <time.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "test/process/cgroup_group.hh"
#include "test/process/load_helper.hh"
#include "test/process/recording.hh"

namespace pm::test {
namespace {

int64_t MonoNs() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec;
}

// Until the kernel's start-time clock (USER_HZ ticks of 10 ms, which the
// recorder reads a process's birth on) is past `mono_ns`: a process started
// then is born after that instant, not in the same tick (onset 0).
void AwaitStartTickAfter(int64_t mono_ns) {
  constexpr int64_t kTick = 10'000'000;
  const int64_t next = (mono_ns / kTick + 1) * kTick;
  const Deadline deadline = DefaultDeadline();
  while (MonoNs() < next)
    if (std::chrono::steady_clock::now() > deadline) FAIL("CLOCK_MONOTONIC stood still");
}

uint64_t KernelWriteBytes(pid_t pid) {
  std::string text = ReadFileBytes("/proc/" + std::to_string(pid) + "/io");
  size_t at = text.find("\nwrite_bytes: ");
  REQUIRE(at != std::string::npos);
  return std::strtoull(text.c_str() + at + 14, nullptr, 10);
}

const JsonValue* FindPid(const JsonValue& list, pid_t pid) {
  for (const JsonValue& p : list.array())
    if (int64_t(p["pid"]) == pid) return &p;
  return nullptr;
}

const JsonValue& PhaseNamed(const Json& all, std::string_view label) {
  for (const JsonValue& phase : all.root().array())
    if (std::string_view(phase["phase"]) == label) return phase;
  FAIL("no phase " << label);
  return all.root();
}

TEST_SUITE("phase cost") {
  TEST_CASE("a neighbour started inside a phase is named: its CPU share, onset and bytes") {
    TempDir dir;
    const std::string path = dir / "noise.pgr";
    // The system under test: an idle helper. (Not this test process: the
    // neighbour it starts would be its descendant, part of the SUT.)
    LoadHelper sut(dir / "unused");
    CommandSession s({"record", "-i", "0.2", "-l", path, "--pid", std::to_string(sut.pid())});
    s.ReadReadyLine();
    Json mark = s.Command("mark noisy");
    REQUIRE(bool(mark.root()["ok"]));
    CHECK(int64_t(mark.root()["cost"]["processes"]) == 1);  // the reply's phase cost
    const int64_t phase_start = int64_t(mark.root()["mono"]);
    const int64_t spawned_after = MonoNs();
    LoadHelper hog(dir / "direct");
    const int64_t spawned_before = MonoNs();
    for (int i = 0; i < 3; ++i) REQUIRE(hog.Do('c') == 'c');  // 1.5 s of its CPU
    const bool direct = hog.Do('w') == 'w';  // 32 MiB, O_DIRECT (refused on tmpfs)
    const double hog_cpu = KernelCpuSeconds(hog.pid());
    const uint64_t hog_written = KernelWriteBytes(hog.pid());
    REQUIRE(bool(s.Command("mark after").root()["ok"]));
    REQUIRE(bool(s.Command("stop").root()["ok"]));
    REQUIRE(s.Wait().code == 0);

    ExitResult r = Run({"summary", "--phases", "--json", path});
    REQUIRE(r.code == 0);
    Json all(r.out);
    const JsonValue* noisy = nullptr;
    for (const JsonValue& phase : all.root().array())
      if (std::string_view(phase["phase"]) == "noisy") noisy = &phase;
    REQUIRE(noisy != nullptr);
    const double seconds = double((*noisy)["exectime"]);
    const JsonValue& verdict = (*noisy)["verdict"];
    CAPTURE(std::string_view(verdict["line"]));
    CHECK(bool(verdict["noisy"]));
    const JsonValue* named = FindPid((*noisy)["everyone"]["top_cpu"], hog.pid());
    REQUIRE(named != nullptr);
    CHECK(std::string_view((*named)["comm"]) == "load_helper");
    const double kernel_pct = hog_cpu / seconds * 100.0;
    CHECK(std::abs(double((*named)["cpu_pct"]) - kernel_pct) <= 3.0);
    // Born inside the phase: its onset, to the kernel's start-time tick.
    const double onset = double((*named)["onset_sec"]);
    CHECK(onset >= (spawned_after - phase_start) / 1e9 - 0.02);
    CHECK(onset <= (spawned_before - phase_start) / 1e9 + 0.02);
    const std::string line{std::string_view(verdict["line"])};
    CHECK(line.find("load_helper (pid " + std::to_string(hog.pid()) + ") used ") !=
          std::string::npos);
    if (direct) {
      const JsonValue* io = FindPid((*noisy)["everyone"]["top_io"], hog.pid());
      REQUIRE(io != nullptr);
      const double got = double(int64_t((*io)["write_bytes"]));
      CHECK(std::abs(got - static_cast<double>(hog_written)) <= 0.05 * hog_written);
      CHECK(hog_written >= 32u << 20);
    } else {
      MESSAGE("O_DIRECT refused under " << dir.path() << ": the I/O check is skipped");
    }

    // Thresholds no phase can reach: the same phase is CLEAN.
    r = Run({"summary", "--phases", "--json", "--noisy-cpu", "1000", "--noisy-io", "1000",
             "--noisy-steal", "1000", "--noisy-pressure", "1000", path});
    REQUIRE(r.code == 0);
    Json clean(r.out);
    for (const JsonValue& phase : clean.root().array()) {
      CHECK(!bool(phase["verdict"]["noisy"]));
      CHECK(std::string_view(phase["verdict"]["line"]) == "CLEAN");
    }
    CHECK(FindPid((*noisy)["everyone"]["top_cpu"], sut.pid()) == nullptr);
    hog.End();
    sut.End();
  }

  TEST_CASE("a neighbour inside a cgroup of its own is named as that cgroup") {
    TestGroup group;
    if (!group.made) {
      MESSAGE("skipped: no writable cgroup v2 hierarchy here (root, /sys/fs/cgroup[/unified])");
      return;
    }
    TempDir dir;
    const std::string path = dir / "group.pgr";
    LoadHelper sut(dir / "unused");
    CommandSession s({"record", "-i", "0.2", "-l", path, "--pid", std::to_string(sut.pid())});
    s.ReadReadyLine();
    const Json marked = s.Command("mark noisy");
    REQUIRE(bool(marked.root()["ok"]));
    // The mark's scan is done once a later command is answered: none has
    // seen the neighbour before it is in its group.
    REQUIRE(bool(s.Command("ping").root()["ok"]));
    AwaitStartTickAfter(int64_t(marked.root()["mono"]));  // its onset after the mark
    LoadHelper hog(dir / "unused2");
    std::ofstream(group.path + "/cgroup.procs") << hog.pid() << "\n";
    for (int i = 0; i < 3; ++i) REQUIRE(hog.Do('c') == 'c');  // 1.5 s of its CPU
    const double hog_cpu = KernelCpuSeconds(hog.pid());
    REQUIRE(bool(s.Command("mark after").root()["ok"]));
    REQUIRE(bool(s.Command("stop").root()["ok"]));
    REQUIRE(s.Wait().code == 0);
    hog.End();  // the group must be empty to go

    ExitResult r = Run({"summary", "--phases", "--json", path});
    REQUIRE(r.code == 0);
    Json all(r.out);
    const JsonValue& noisy = PhaseNamed(all, "noisy");
    const double kernel_pct = hog_cpu / double(noisy["exectime"]) * 100.0;
    const JsonValue& groups = noisy["everyone"]["top_cgroups"];
    REQUIRE(groups.array().size() >= 1);
    CHECK(std::string_view(groups.at(0)["cgroup"]) == "/" + group.name);
    CHECK(int64_t(groups.at(0)["processes"]) == 1);
    CHECK(int64_t(groups.at(0)["busiest_pid"]) == hog.pid());
    CHECK(std::abs(double(groups.at(0)["cpu_pct"]) - kernel_pct) <= 3.0);
    const std::string line{std::string_view(noisy["verdict"]["line"])};
    CAPTURE(line);
    CHECK(line.find("cgroup /" + group.name + " used ") != std::string::npos);
    CHECK(line.find("(load_helper, pid " + std::to_string(hog.pid()) + ", from ") !=
          std::string::npos);
    CHECK(line.find("load_helper (pid") == std::string::npos);  // named once, by its group
    r = Run({"summary", "--phases", path});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("  Top cgroups: %CORE") != std::string::npos);
    CHECK(r.out.find("Verdict: NOISY: cgroup /" + group.name + " used ") != std::string::npos);
    sut.End();
  }

  TEST_CASE("pid PID: a process named while recording is counted from its birth, reply and file") {
    TempDir dir;
    const std::string path = dir / "named.pgr";
    LoadHelper sut(dir / "unused");
    const std::string sut_pid = std::to_string(sut.pid());
    CommandSession s({"record", "-i", "0.2", "-l", path, "--pid", sut_pid});
    s.ReadReadyLine();
    REQUIRE(bool(s.Command("mark work").root()["ok"]));
    LoadHelper worker(dir / "unused2");
    Json named = s.Command("pid " + std::to_string(worker.pid()));
    REQUIRE(bool(named.root()["ok"]));
    CHECK(bool(named.root()["changed"]));
    CHECK_FALSE(bool(s.Command("pid " + std::to_string(worker.pid())).root()["changed"]));
    CHECK_FALSE(bool(s.Command("pid " + sut_pid).root()["changed"]));  // a --pid row already
    CHECK(std::string_view(s.Command("pid 9999999").root()["error"]) == "no_such_process");
    CHECK(std::string_view(s.Command("pid 12x").root()["error"]) == "bad_argument");
    for (int i = 0; i < 2; ++i) REQUIRE(worker.Do('c') == 'c');  // 1 s of its CPU
    const double worker_cpu = KernelCpuSeconds(worker.pid());      // asleep since
    Json done = s.Command("mark done");
    REQUIRE(bool(done.root()["ok"]));
    const JsonValue& cost = done.root()["cost"];
    CHECK(int64_t(cost["processes"]) == 2);
    // The worker from its birth (a few ms before it was named), the idle
    // --pid row besides.
    const double reply_cpu = int64_t(cost["cpu_ns"]) / 1e9;
    CHECK(reply_cpu >= worker_cpu);
    CHECK(reply_cpu <= worker_cpu + 0.02);
    REQUIRE(bool(s.Command("stop").root()["ok"]));
    REQUIRE(s.Wait().code == 0);
    worker.End();
    sut.End();
    ExitResult r = Run({"summary", "--phases", "--json", path});
    REQUIRE(r.code == 0);
    Json all(r.out);
    const JsonValue& work = PhaseNamed(all, "work");
    CHECK(std::abs(double(work["everyone"]["sut_cpu_sec"]) - reply_cpu) <= 2e-6);
    CHECK(FindPid(work["everyone"]["top_cpu"], worker.pid()) == nullptr);  // not everyone else
  }

  TEST_CASE("pid PID: a named process gone is counted in its phase, then forgotten") {
    TempDir dir;
    const std::string path = dir / "gone.pgr";
    LoadHelper sut(dir / "unused");
    CommandSession s({"record", "-i", "0.2", "-l", path, "--pid", std::to_string(sut.pid())});
    s.ReadReadyLine();
    REQUIRE(bool(s.Command("mark work").root()["ok"]));
    LoadHelper worker(dir / "worker");
    const pid_t worker_pid = worker.pid();
    // Born inside the phase: its start-up before it was named counts too.
    REQUIRE(bool(s.Command("pid " + std::to_string(worker_pid)).root()["ok"]));
    REQUIRE(worker.Do('c') == 'c');
    const double worker_cpu = KernelCpuSeconds(worker_pid);  // since its birth
    REQUIRE(bool(s.Command("sample").root()["ok"]));  // its counters, before it exits
    worker.End();                                      // exited and reaped
    Json died = s.Command("mark after");
    REQUIRE(bool(died.root()["ok"]));
    CHECK(int64_t(died.root()["cost"]["processes"]) == 2);
    const double died_cpu = int64_t(died.root()["cost"]["cpu_ns"]) / 1e9;
    CHECK(died_cpu >= worker_cpu);
    // Many short-lived ones, three a phase: the list stays as short as a phase's.
    for (int phase = 0; phase < 8; ++phase) {
      for (int i = 0; i < 3; ++i) {
        LoadHelper brief(dir / "brief");
        REQUIRE(bool(s.Command("pid " + std::to_string(brief.pid())).root()["ok"]));
        brief.End();
      }
      Json mark = s.Command("mark brief" + std::to_string(phase));
      REQUIRE(bool(mark.root()["ok"]));
      CHECK(int64_t(mark.root()["cost"]["processes"]) == 4);
    }
    REQUIRE(bool(s.Command("stop").root()["ok"]));
    REQUIRE(s.Wait().code == 0);
    sut.End();
    std::vector<size_t> added;  // each scan's "added" rows; whether the worker is one
    std::vector<bool> has_worker;
    for (const std::string& line : ReadRecording(path).lines) {
      if (!line.starts_with("{\"event\":\"scan\"")) continue;
      Json scan(line);
      const JsonValue& rows = scan.root()["added"];
      added.push_back(rows.exists() ? rows.array().size() : 0);
      bool found = false;
      if (rows.exists())
        for (const JsonValue& row : rows.array()) found = found || int64_t(row.at(0)) == worker_pid;
      has_worker.push_back(found);
    }
    // start, mark work, mark after, 8 brief marks, stop.
    REQUIRE(added.size() == 12);
    CHECK(has_worker[2]);  // the scan of the phase it died in
    for (size_t i = 3; i < added.size(); ++i) {
      CAPTURE(i);
      CHECK_FALSE(has_worker[i]);
      CHECK(added[i] <= 3);
    }
    CHECK(added.back() == 0);
    // A reader counts it in that phase from that scan, as the reply did.
    ExitResult r = Run({"summary", "--phases", "--json", path});
    REQUIRE(r.code == 0);
    Json all(r.out);
    CHECK(std::abs(double(PhaseNamed(all, "work")["everyone"]["sut_cpu_sec"]) - died_cpu) <= 2e-6);
  }

  TEST_CASE("pid PID without a system under test: refused, the recording goes on") {
    TempDir dir;
    CommandSession s({"record", "-i", "0.2", "-l", dir / "none.pgr"});
    s.ReadReadyLine();
    CHECK(std::string_view(s.Command("pid 1").root()["error"]) == "no_system_under_test");
    REQUIRE(bool(s.Command("stop").root()["ok"]));
    CHECK(s.Wait().code == 0);
  }

  TEST_CASE("stat --noisy-exit N: N for a noisy run of a command that succeeded, else its status") {
    TempDir dir;
    // Threshold 0: any CPU outside `true` (there is always some) is noise.
    ExitResult r = Run({"stat", "-i", "0.1", "-l", dir / "a.pgr", "--noisy-exit", "75",
                        "--noisy-cpu", "0", "--", "true"});
    CAPTURE(r.err);
    CHECK(r.code == 75);
    CHECK(r.out.find("\nVerdict: NOISY: ") != std::string::npos);
    r = Run({"stat", "-i", "0.1", "-l", dir / "b.pgr", "--noisy-exit", "75", "--noisy-cpu",
             "1000", "--noisy-io", "1000", "--noisy-steal", "1000", "--noisy-pressure", "1000",
             "--json", "--", "true"});
    CHECK(r.code == 0);
    CHECK(r.out.find("\"verdict\":{\"noisy\":false,\"reasons\":[]") != std::string::npos);
    // A failing command keeps its own status, noise or not.
    r = Run({"stat", "-i", "0.1", "-l", dir / "c.pgr", "--noisy-exit", "75", "--noisy-cpu", "0",
             "--", "false"});
    CHECK(r.code == 1);
  }

  TEST_CASE("bad thresholds and exit statuses: one line naming the fix, exit 1") {
    ExitResult r = Run({"stat", "--noisy-exit", "0", "--", "true"});
    CHECK(r.code == 1);
    CHECK(r.err.find("--noisy-exit '0': not an exit status (write e.g. --noisy-exit 75)") !=
          std::string::npos);
    r = Run({"summary", "--noisy-cpu", "lots", "x.pgr"});
    CHECK(r.code == 1);
    CHECK(r.err.find("--noisy-cpu 'lots': not a percentage") != std::string::npos);
  }
}

}  // namespace
}  // namespace pm::test
