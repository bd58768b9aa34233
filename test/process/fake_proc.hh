// A fake /proc and /sys tree for `record --root`: two CPUs, one disk (vda),
// one interface (eth0), meminfo. Counters are rewritten in place (same
// inode: the recorder keeps its files open and preads them from offset 0),
// so a test drives exactly what each sample sees.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "test/process/recording.hh"

namespace pm::test {

struct FakeCounters {
  // user nice system idle iowait irq softirq steal guest guest_nice
  std::array<uint64_t, 10> cpu_all{}, cpu0{}, cpu1{};
  // reads merges sectors ms writes merges sectors ms in_flight io_ms weighted
  std::array<uint64_t, 11> vda{};
  // rx bytes packets errs drop fifo frame compressed multicast, tx: 8 more
  std::array<uint64_t, 16> eth0{};
  uint64_t mem_total = 8'000'000, mem_free = 1'000'000, buffers = 100,
           cached = 200, s_reclaimable = 300;
  // More whole disks and interfaces after vda and eth0 (the disks' names
  // are fixed by the first Write: FakeProc makes their /sys/block entry).
  std::vector<std::pair<std::string, std::array<uint64_t, 11>>> more_disks;
  std::vector<std::pair<std::string, std::array<uint64_t, 16>>> more_nets;
};

// Counters that differ with `k` (every collector moves), for recordings
// whose content only needs to be real.
FakeCounters CountersAt(uint64_t k);

class FakeProc {
 public:
  explicit FakeProc(const FakeCounters& initial);  // in a fresh TempDir
  const std::string& root() const { return dir_.path(); }
  void Write(const FakeCounters& c) const;

 private:
  TempDir dir_;
};

// A recording of `fake` at `path` (codec by name): the first sample of
// `counters[0]`, one `sample` command per further entry, then the stop's
// final sample. `extra` is added to record's arguments.
void RecordFake(const FakeProc& fake, const std::string& path,
                const std::vector<FakeCounters>& counters,
                std::vector<std::string> extra = {});

// A spawned `perfmonger ARGS` reading `input` as its stdin (a memfd).
struct PendingRun {
  explicit PendingRun(std::vector<std::string> args, const std::string& input);
  Child child;
};

// Static bytes as a file.
void WriteFile(const std::string& path, const std::string& bytes);

// $PM_LEGACY_DATA/name.
std::string LegacyFile(const std::string& name);

}  // namespace pm::test
