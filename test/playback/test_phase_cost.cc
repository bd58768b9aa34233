// phase_cost.hh on scans made by hand: who is the system under test, who
// is named, what is the remainder, and the verdict with each threshold.
#include <doctest/doctest.h>

#include <memory>

#include "playback/outputs/phase_cost.hh"
#include "playback/outputs/phases.hh"
#include "playback/reading/scan_event.hh"

namespace pm {
namespace {

constexpr int64_t kS = 1'000'000'000;

ScannedProcess Proc(uint32_t pid, uint32_t ppid, double cpu_s, uint64_t written = 0,
                    const char* comm = "p", const char* cgroup = "/") {
  ScannedProcess p;
  p.pid = pid, p.ppid = ppid, p.start = 5, p.uid = 1000;
  p.cpu_ns = static_cast<uint64_t>(cpu_s * 1e9);
  p.read_bytes = 0, p.write_bytes = written;
  p.comm = comm, p.cgroup = cgroup;
  return p;
}

std::shared_ptr<const ScanEvent> Scan(std::vector<ScannedProcess> processes,
                                      std::vector<uint32_t> sut = {100}) {
  auto scan = std::make_shared<ScanEvent>();
  scan->sut = std::move(sut);
  scan->processes = std::move(processes);
  return scan;
}

RawSample At(int64_t mono_s) {
  RawSample s;
  s.time_ns = s.mono_ns = 1000 * kS + mono_s * kS;
  return s;
}

// A 2 s phase: the scans at its ends, no collector beside them.
SpanVerdict Judged(std::vector<ScannedProcess> begin, std::vector<ScannedProcess> end,
                   NoiseThresholds t = {}) {
  RecordingInfo info;
  info.pid = 50;  // the recorder
  std::optional<SpanVerdict> v = JudgeSpan(At(0), At(2), {Scan(begin), Scan(end)}, info, t);
  REQUIRE(v.has_value());
  return *v;
}

TEST_CASE("a quiet phase is CLEAN; one process over the threshold is NOISY, named") {
  SpanVerdict quiet = Judged({Proc(7, 1, 1.0)}, {Proc(7, 1, 1.1)});  // 5 % of a core
  CHECK_FALSE(quiet.verdict.noisy);
  CHECK(quiet.verdict.Line() == "CLEAN");
  REQUIRE(quiet.everyone.top_cpu.size() == 1);
  CHECK(quiet.everyone.top_cpu[0].cpu_s == doctest::Approx(0.1));

  SpanVerdict noisy = Judged({Proc(7, 1, 1.0, 0, "stress-ng")}, {Proc(7, 1, 1.48, 0, "stress-ng")});
  CHECK(noisy.verdict.noisy);
  CHECK(noisy.verdict.Line() == "NOISY: stress-ng (pid 7) used 24.0 % of a core");
  // The threshold decides.
  CHECK_FALSE(Judged({Proc(7, 1, 1.0)}, {Proc(7, 1, 1.48)}, {.cpu_pct = 25}).verdict.noisy);
  CHECK(Judged({Proc(7, 1, 1.0)}, {Proc(7, 1, 1.1)}, {.cpu_pct = 5}).verdict.noisy);
}

TEST_CASE("processes in a cgroup other than the root are judged together, named once") {
  const std::vector<ScannedProcess> begin = {Proc(7, 1, 1.0, 0, "a", "/noise"),
                                             Proc(8, 1, 1.0, 0, "b", "/noise"),
                                             Proc(9, 1, 1.0, 0, "c", "/")};
  // 6 % and 7 % of a core in /noise (13 % together), 11 % in the root.
  SpanVerdict v = Judged(begin, {Proc(7, 1, 1.12, 0, "a", "/noise"),
                                 Proc(8, 1, 1.14, 0, "b", "/noise"),
                                 Proc(9, 1, 1.22, 0, "c", "/")});
  REQUIRE(v.everyone.top_groups.size() == 1);
  CHECK(v.everyone.top_groups[0].cgroup == "/noise");
  CHECK(v.everyone.top_groups[0].processes == 2);
  CHECK(v.everyone.top_groups[0].cpu_s == doctest::Approx(0.26));
  CHECK(v.verdict.Line() ==
        "NOISY: cgroup /noise used 13.0 % of a core (2 processes, the busiest b, pid 8); "
        "c (pid 9) used 11.0 % of a core");
  // One process over the threshold in its group: named by the group only.
  v = Judged(begin, {Proc(7, 1, 1.3, 0, "a", "/noise"), Proc(8, 1, 1.0, 0, "b", "/noise"),
                     Proc(9, 1, 1.0, 0, "c", "/")});
  CHECK(v.verdict.Line() == "NOISY: cgroup /noise used 15.0 % of a core (a, pid 7)");
}

TEST_CASE("processes the pid command added: the system under test, from their earlier row or FROM") {
  auto begin = std::const_pointer_cast<ScanEvent>(Scan({Proc(7, 1, 1.0)}));
  auto end = std::const_pointer_cast<ScanEvent>(Scan({Proc(7, 1, 1.0), Proc(9, 1, 0.5)}));
  NamedScanRow worker{9, 40, {500'000'000, 0, 0, 4096, 0, 0, 0}, {}};  // born inside
  NamedScanRow gone{11, 41, {300'000'000, 0, 0, 0, 0, 0, 0}, {}};       // exited, not in processes
  NamedScanRow kept = worker;
  kept.pid = 12, kept.now[0] = 900'000'000;
  NamedScanRow earlier = kept;
  earlier.now[0] = 700'000'000;  // in the earlier scan: 0.2 s since
  end->added = {worker, gone, kept};
  begin->added = {earlier};
  RecordingInfo info;
  info.pid = 50;
  std::optional<SpanVerdict> v = JudgeSpan(At(0), At(2), {begin, end}, info, {});
  REQUIRE(v.has_value());
  CHECK(v->everyone.sut_cpu_s == doctest::Approx(0.5 + 0.3 + 0.2));
  CHECK(v->everyone.sut_bytes == 4096);
  CHECK(v->everyone.top_cpu.empty());  // pid 9 is not everyone else
  CHECK_FALSE(v->verdict.noisy);
}

TEST_CASE("the system under test, its descendants and the recorder are never named") {
  // 100: a --pid row; 101 its child, 102 its grandchild; 50 the recorder
  // (the library's child); 8 a neighbour born inside the phase.
  SpanVerdict v = Judged(
      {Proc(100, 1, 0), Proc(101, 100, 0), Proc(102, 101, 0), Proc(50, 100, 0)},
      {Proc(100, 1, 1), Proc(101, 100, 1), Proc(102, 101, 1), Proc(50, 100, 1), Proc(8, 1, 0.5)});
  REQUIRE(v.everyone.top_cpu.size() == 1);
  CHECK(v.everyone.top_cpu[0].pid == 8);
  CHECK(v.everyone.foreign_cpu_s == doctest::Approx(0.5));
  CHECK(v.everyone.sut_cpu_s == doctest::Approx(2.0));  // the descendants; 100 is its procs row's
  CHECK(v.everyone.recorder_cpu_s == doctest::Approx(1.0));
}

TEST_CASE("a process born inside the phase: its whole use, its onset; a reused pid is another") {
  ScannedProcess born = Proc(9, 1, 0.6, 4096);
  born.start = (1000 + 1) * 100 + 25;  // 1.25 s after the phase's start, in ticks
  ScannedProcess old = Proc(9, 1, 5.0, 1 << 20);
  old.start = 1;  // the same pid before: another process
  SpanVerdict v = Judged({old}, {born});
  REQUIRE(v.everyone.top_cpu.size() == 1);
  CHECK(v.everyone.top_cpu[0].cpu_s == doctest::Approx(0.6));
  CHECK(v.everyone.top_cpu[0].onset_s == doctest::Approx(1.25));
  CHECK(v.verdict.Line() == "NOISY: p (pid 9) used 30.0 % of a core from 1.25 s");
  REQUIRE(v.everyone.top_io.size() == 1);
  CHECK(v.everyone.top_io[0].write_bytes == 4096);
}

TEST_CASE("at most five named by CPU and by I/O, busiest first") {
  std::vector<ScannedProcess> begin, end;
  for (uint32_t pid = 10; pid < 18; ++pid) {
    begin.push_back(Proc(pid, 1, 0));
    end.push_back(Proc(pid, 1, 0.01 * pid, 100 * (30 - pid)));
  }
  SpanVerdict v = Judged(begin, end);
  REQUIRE(v.everyone.top_cpu.size() == 5);
  CHECK(v.everyone.top_cpu[0].pid == 17);
  CHECK(v.everyone.top_cpu[4].pid == 13);
  REQUIRE(v.everyone.top_io.size() == 5);
  CHECK(v.everyone.top_io[0].pid == 10);
}

TEST_CASE("no scans (an older recording, no system under test): no verdict at all") {
  RecordingInfo info;
  CHECK_FALSE(JudgeSpan(At(0), At(2), {}, info, {}).has_value());
}

TEST_CASE("PhaseWalk: the start's scan begins the first phase, a mark's ends one and begins the next") {
  PhaseWalk walk(true);
  auto event = [](const char* kind, std::shared_ptr<const ScanEvent> scan = nullptr) {
    RecordingEvent e;
    e.kind = kind;
    e.label = "m";
    e.scan = std::move(scan);
    return e;
  };
  auto s0 = Scan({}), s1 = Scan({}), s2 = Scan({});
  walk.OnSample(At(0));
  walk.OnEvent(event("scan", s0));
  walk.OnSample(At(1));
  walk.OnEvent(event("mark"));
  walk.OnEvent(event("scan", s1));
  walk.OnSample(At(2));
  walk.OnEvent(event("scan", s2));  // the stop's
  walk.OnEvent(event("end"));
  REQUIRE(walk.phases().size() == 2);
  CHECK(walk.phases()[0].scans.begin == s0);
  CHECK(walk.phases()[0].scans.end == s1);
  CHECK(walk.phases()[1].scans.begin == s1);
  CHECK(walk.phases()[1].scans.end == s2);
  CHECK(walk.whole_scans().begin == s0);
  CHECK(walk.whole_scans().end == s2);
}

}  // namespace
}  // namespace pm
