#include "test/process/fake_proc.hh"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include <cstdlib>
#include <stdexcept>

#include <doctest/doctest.h>

#include "common/io.hh"

namespace pm::test {
namespace {

template <size_t N>
std::string Join(const std::array<uint64_t, N>& values) {
  std::string out;
  for (uint64_t v : values) {
    out.push_back(' ');
    out += std::to_string(v);
  }
  return out;
}

std::string Stat(const FakeCounters& c) {
  return "cpu " + Join(c.cpu_all) + "\ncpu0" + Join(c.cpu0) + "\ncpu1" + Join(c.cpu1) +
         "\nintr 0 0\nctxt 1000\nbtime 1700000000\nprocesses 50\n"
         "procs_running 1\nprocs_blocked 0\n";
}

std::string Diskstats(const FakeCounters& c) {
  std::string out = " 254       0 vda" + Join(c.vda) + "\n 254       1 vda1" + Join(c.vda) + "\n";
  int minor = 16;
  for (const auto& [name, counters] : c.more_disks)
    out += " 254      " + std::to_string(minor++) + " " + name + Join(counters) + "\n";
  return out;
}

std::string MoreNets(const FakeCounters& c) {
  std::string out;
  for (const auto& [name, counters] : c.more_nets) out += "  " + name + ":" + Join(counters) + "\n";
  return out;
}

std::string NetDev(const FakeCounters& c) {
  return "Inter-|   Receive                                                |  Transmit\n"
         " face |bytes    packets errs drop fifo frame compressed multicast|bytes    "
         "packets errs drop fifo colls carrier compressed\n"
         "  eth0:" + Join(c.eth0) + "\n" + MoreNets(c);
}

std::string Meminfo(const FakeCounters& c) {
  const std::pair<const char*, uint64_t> rows[] = {
      {"MemTotal", c.mem_total}, {"MemFree", c.mem_free}, {"MemAvailable", 2'000'000},
      {"Buffers", c.buffers}, {"Cached", c.cached}, {"SwapCached", 0},
      {"Active", 10}, {"Inactive", 11}, {"SwapTotal", 0}, {"SwapFree", 0},
      {"Dirty", 12}, {"Writeback", 0}, {"AnonPages", 13}, {"Mapped", 14},
      {"Shmem", 15}, {"Slab", 16}, {"SReclaimable", c.s_reclaimable},
      {"SUnreclaim", 17}, {"KernelStack", 18}, {"PageTables", 19},
      {"NFS_Unstable", 0}, {"Bounce", 0}, {"CommitLimit", 20},
      {"Committed_AS", 21}, {"AnonHugePages", 0}, {"HugePages_Total", 0},
      {"HugePages_Free", 0}, {"HugePages_Rsvd", 0}, {"HugePages_Surp", 0},
      {"Hugepagesize", 2048}};
  std::string out;
  for (const auto& [key, value] : rows)
    out += std::string(key) + ": " + std::to_string(value) +
           (std::string_view(key).starts_with("HugePages_") ? "\n" : " kB\n");
  return out;
}

// In place: O_TRUNC keeps the inode the recorder has open.
void Rewrite(const std::string& path, const std::string& bytes) {
  UniqueFd fd = OpenAt(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  WriteAll(fd.Get(), bytes);
}

}  // namespace

FakeCounters CountersAt(uint64_t k) {
  FakeCounters c;
  c.cpu0 = {100 + 7 * k, 1, 50 + 3 * k, 1000 + 40 * k, 5 + k, 1, 2, 0, 0, 0};
  c.cpu1 = {200 + 5 * k, 2, 60 + 4 * k, 900 + 41 * k, 6, 1, 3 + k, 0, 0, 0};
  for (size_t i = 0; i < 10; ++i) c.cpu_all[i] = c.cpu0[i] + c.cpu1[i];
  c.vda = {1000 + 17 * k, 3, 8000 + 300 * k, 500 + 9 * k, 2000 + 11 * k, 4,
           32000 + 170 * k, 1000 + 13 * k, 0, 700 + 20 * k, 1500 + 33 * k};
  c.eth0 = {1'000'000 + 4096 * k, 100 + 5 * k, 0, 0, 0, 0, 0, 0,
            500'000 + 999 * k, 50 + 2 * k, 0, 0, 0, 0, 0, 0};
  c.mem_free = 1'000'000 - 10 * k;
  return c;
}

FakeProc::FakeProc(const FakeCounters& initial) {
  for (const char* d : {"proc", "proc/net", "sys", "sys/block", "sys/block/vda"})
    if (mkdir((dir_ / d).c_str(), 0755) != 0) throw std::runtime_error("mkdir");
  WriteFile(dir_ / "sys/block/vda/dev", "254:0\n");
  int minor = 16;
  for (const auto& [name, counters] : initial.more_disks) {
    if (mkdir((dir_ / ("sys/block/" + name)).c_str(), 0755) != 0) throw std::runtime_error("mkdir");
    WriteFile(dir_ / ("sys/block/" + name + "/dev"), "254:" + std::to_string(minor++) + "\n");
  }
  Write(initial);
}

void FakeProc::Write(const FakeCounters& c) const {
  Rewrite(dir_ / "proc/stat", Stat(c));
  Rewrite(dir_ / "proc/diskstats", Diskstats(c));
  Rewrite(dir_ / "proc/net/dev", NetDev(c));
  Rewrite(dir_ / "proc/meminfo", Meminfo(c));
}

void RecordFake(const FakeProc& fake, const std::string& path,
                const std::vector<FakeCounters>& counters,
                std::vector<std::string> extra) {
  fake.Write(counters.at(0));
  std::vector<std::string> args = {"record", "--root", fake.root(), "-l", path,
                                   "-i", "3600"};
  args.insert(args.end(), extra.begin(), extra.end());
  CommandSession s(args);
  s.ReadReadyLine();
  for (size_t i = 1; i < counters.size(); ++i) {
    fake.Write(counters[i]);
    REQUIRE(bool(s.Command("sample").root()["ok"]));
  }
  s.CloseStop();
  ExitResult r = s.Wait();
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
}

PendingRun::PendingRun(std::vector<std::string> args, const std::string& input)
    : child([&] {
        SpawnOptions options;
        options.args = std::move(args);
        options.stdin_fd = UniqueFd::Adopt(memfd_create("input", MFD_CLOEXEC));
        if (!options.stdin_fd) throw std::runtime_error("memfd_create");
        WriteAll(options.stdin_fd.Get(), input);
        lseek(options.stdin_fd.Get(), 0, SEEK_SET);
        return options;
      }()) {}

void WriteFile(const std::string& path, const std::string& bytes) {
  Rewrite(path, bytes);
}

std::string LegacyFile(const std::string& name) {
  const char* dir = std::getenv("PM_LEGACY_DATA");
  if (!dir) throw std::runtime_error("PM_LEGACY_DATA is not set");
  return std::string(dir) + "/" + name;
}

}  // namespace pm::test
