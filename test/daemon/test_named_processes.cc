// NamedProcesses on a fake /proc tree: whether a process named with the
// `pid` command counts from its birth or from its naming, by its start
// time against the phase's start on the boot clock.
#include "daemon/named_processes.hh"

#include <doctest/doctest.h>
#include <unistd.h>

#include <string>

#include "test/daemon/test_util.hh"

namespace {

using pm::test::TempDir;
using pm::test::WriteFile;

constexpr uint32_t kPid = 4242;
const int64_t kTickNs = 1'000'000'000 / sysconf(_SC_CLK_TCK);  // the start time's unit

// A process born in tick `start_ticks` since boot that has run `run_ns`.
void WriteProcess(const TempDir& root, uint64_t start_ticks, uint64_t run_ns) {
  const std::string dir = root.path() / "proc" / std::to_string(kPid);
  WriteFile(dir + "/stat", std::to_string(kPid) +
                               " (worker) S 1 1 1 0 -1 0 7 0 0 0 1 1 0 0 20 0 1 0 " +
                               std::to_string(start_ticks) + " 1000 100\n");
  WriteFile(dir + "/io",
            "rchar: 0\nwchar: 0\nsyscr: 0\nsyscw: 0\nread_bytes: 0\nwrite_bytes: 0\n"
            "cancelled_write_bytes: 0\n");
  WriteFile(dir + "/task/" + std::to_string(kPid) + "/schedstat",
            std::to_string(run_ns) + " 0 1\n");
}

// The CPU the phase counts for a process born in tick `start_ticks`, named
// within the phase that began at `phase_start_boot_ns` after 30 ms of its
// CPU, that then runs 50 ms more.
uint64_t PhaseCpuNs(uint64_t start_ticks, int64_t phase_start_boot_ns) {
  TempDir root;
  WriteProcess(root, start_ticks, 30'000'000);
  pm::UniqueFd fd = pm::test::OpenDir(root.path());
  pm::NamedProcesses named(fd.Get());
  REQUIRE(named.Name(kPid, phase_start_boot_ns).empty());
  WriteProcess(root, start_ticks, 80'000'000);
  named.Read();
  pm::SutCost cost;
  named.ClosePhase(cost);
  REQUIRE(cost.processes == 1);
  return cost.cpu_ns;
}

}  // namespace

TEST_CASE("NamedProcesses: born after the phase's start, counted from its birth") {
  // The phase began 5.004 s after boot, the process later: the compared
  // instants are the tree's, whatever the machine's boot clock says now.
  const int64_t phase = 500 * kTickNs + 4'000'000;
  CHECK(PhaseCpuNs(501, phase) == 80'000'000);
  CHECK(PhaseCpuNs(900, phase) == 80'000'000);  // named long after its birth
  // Born in the tick the phase began in: perhaps after it, so from its birth.
  CHECK(PhaseCpuNs(500, phase) == 80'000'000);
  CHECK(PhaseCpuNs(500, 500 * kTickNs + kTickNs - 1) == 80'000'000);
}

TEST_CASE("NamedProcesses: born before the phase's start, counted from its naming") {
  const int64_t phase = 500 * kTickNs + 4'000'000;
  CHECK(PhaseCpuNs(499, phase) == 50'000'000);  // its tick ended before the phase
  CHECK(PhaseCpuNs(10, phase) == 50'000'000);
  CHECK(PhaseCpuNs(500, 501 * kTickNs) == 50'000'000);  // the phase began as its tick ended
}

TEST_CASE("NamedProcesses: no such process, and named twice") {
  TempDir root;
  pm::UniqueFd fd = pm::test::OpenDir(root.path());
  pm::NamedProcesses named(fd.Get());
  CHECK(named.Name(kPid, 0) == "no_such_process");
  CHECK_FALSE(named.Has(kPid));
  WriteProcess(root, 1, 0);
  CHECK(named.Name(kPid, 0).empty());
  CHECK(named.Has(kPid));
  CHECK(named.Name(kPid, 0).empty());
}
