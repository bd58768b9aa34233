#include "daemon/collect/process_reader.hh"

#include <unistd.h>

namespace pm {
namespace {

const uint64_t kHz = static_cast<uint64_t>(sysconf(_SC_CLK_TCK));
const uint64_t kPageKb = static_cast<uint64_t>(sysconf(_SC_PAGESIZE)) / 1024;

std::string Dir(std::string_view pid) { return "proc/" + std::string(pid); }

}  // namespace

ProcessReader::ProcessReader(int root_dirfd, std::string_view pid, bool real_root)
    : stat_file_(root_dirfd, Dir(pid) + "/stat", 4096, ProcFile::Delivery::kWhole),
      io_file_(root_dirfd, Dir(pid) + "/io", 4096, ProcFile::Delivery::kWhole),
      cpu_(root_dirfd, pid, real_root) {}

// The clock first, the pinned stat file after: a stat read that succeeds
// proves the clock was this process's (thread_group_cpu.hh).
bool ProcessReader::Read(Values& v) {
  const ThreadGroupCpu::Times cpu = cpu_.Read();
  std::string_view stat_text = stat_file_.Read();
  if (stat_text.empty()) return false;
  ParseProcStat(stat_text, stat_, stat_file_.name());
  if (comm_.empty()) comm_ = ProcStatComm(stat_text);
  std::string_view io_text = io_file_.Read();
  if (io_text.empty()) return false;
  ParseProcIo(io_text, io_, io_file_.name());
  Fill(v, cpu);
  return true;
}

void ProcessReader::Fill(Values& v, ThreadGroupCpu::Times cpu) const {
  namespace pf = process_field;
  auto us = [](uint64_t ticks) { return ticks * (1'000'000 / kHz); };
  v[pf::kUtime] = us(stat_.utime), v[pf::kStime] = us(stat_.stime);
  v[pf::kCutime] = us(stat_.cutime), v[pf::kCstime] = us(stat_.cstime);
  v[pf::kRchar] = io_.rchar, v[pf::kWchar] = io_.wchar;
  v[pf::kReadBytes] = io_.read_bytes, v[pf::kWriteBytes] = io_.write_bytes;
  v[pf::kSyscr] = io_.syscr, v[pf::kSyscw] = io_.syscw;
  v[pf::kCpuNs] = cpu.run_ns, v[pf::kRunWaitNs] = cpu.wait_ns;
  v[pf::kMinflt] = stat_.minflt, v[pf::kMajflt] = stat_.majflt, v[pf::kCtxsw] = cpu.slices;
  v[pf::kThreads] = stat_.num_threads, v[pf::kRssKb] = stat_.rss_pages * kPageKb;
}

}  // namespace pm
