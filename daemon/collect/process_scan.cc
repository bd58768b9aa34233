#include "daemon/collect/process_scan.hh"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <stdexcept>
#include <unordered_map>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/collect/pid_dir.hh"
#include "daemon/collect/thread_group_cpu.hh"
#include "proto/json.hh"

namespace pm {
namespace {

constexpr size_t kMaxFileBytes = 64 * 1024;  // stat, io, cgroup: far less

void Comma(std::string& out) { out.push_back(','); }

}  // namespace

void ProcessScan::ForgetGone() {
  std::unordered_map<uint32_t, Known> kept;
  for (uint32_t pid : pids_)
    if (auto it = known_.find(pid); it != known_.end()) kept.emplace(pid, std::move(it->second));
  known_ = std::move(kept);
}

std::string_view CgroupV2Path(std::string_view text) {
  while (!text.empty()) {
    size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    if (line.starts_with("0::")) return line.substr(3);
    if (eol == std::string_view::npos) break;
    text.remove_prefix(eol + 1);
  }
  return {};
}

ProcessScan::ProcessScan(int root_dirfd)
    : proc_(OpenAt(root_dirfd, "proc", O_RDONLY | O_DIRECTORY)),
      real_root_(IsRealRoot(root_dirfd)),
      tick_ns_(1'000'000'000 / static_cast<uint64_t>(sysconf(_SC_CLK_TCK))) {}

void ProcessScan::Append(std::string& out) {
  ListPids(proc_.Get(), pids_);
  out.push_back('[');
  for (uint32_t pid : pids_) {
    const size_t before = out.size();
    if (out.back() != '[') Comma(out);
    if (!ReadOne(pid, out)) out.resize(before);  // gone meanwhile
  }
  if (known_.size() > 2 * pids_.size() + 1024) ForgetGone();
  out.push_back(']');
}

bool ProcessScan::Slurp(int dirfd, const char* name, struct stat* owner) {
  return SlurpAt(dirfd, name, text_, kMaxFileBytes, owner);
}

// One row; false when the process is gone or its stat makes no sense.
// The clock before the stat file: a stat read after it proves the pid was
// still this process (it is reused only once reaped). A clock equal to
// the last scan's, to the nanosecond, is that process, idle since.
bool ProcessScan::ReadOne(uint32_t pid, std::string& out) {
  const int64_t clock_ns = real_root_ ? ProcessClockNs(pid) : -1;
  if (auto it = known_.find(pid); clock_ns >= 0 && it != known_.end() &&
                                   it->second.clock_ns == clock_ns) {
    out.append(it->second.row);
    return true;
  }
  const size_t begin = out.size();
  if (!ReadFresh(pid, clock_ns, out)) return false;
  Known& known = known_[pid];  // CgroupOf() made it
  known.clock_ns = clock_ns;
  known.row.assign(out, begin);
  return true;
}

bool ProcessScan::ReadFresh(uint32_t pid, int64_t clock_ns, std::string& out) {
  const std::string dir = std::to_string(pid);
  struct stat owner;
  if (!Slurp(proc_.Get(), (dir + "/stat").c_str(), &owner) || text_.empty()) return false;
  try {
    ParseProcStat(text_, stat_);
  } catch (const std::runtime_error&) {
    return false;
  }
  out.push_back('[');
  AppendUint(out, pid), Comma(out);
  AppendUint(out, stat_.ppid), Comma(out);
  AppendUint(out, stat_.start_ticks), Comma(out);
  AppendUint(out, owner.st_uid), Comma(out);
  AppendUint(out, clock_ns >= 0 ? static_cast<uint64_t>(clock_ns)
                                : (stat_.utime + stat_.stime) * tick_ns_);
  Comma(out);
  comm_.clear();
  AppendJsonString(comm_, ProcStatComm(text_));  // before text_ is reused
  bool io = Slurp(proc_.Get(), (dir + "/io").c_str());
  if (io) {
    try {
      ParseProcIo(text_, io_);
    } catch (const std::runtime_error&) {
      io = false;
    }
  }
  if (io) AppendUint(out, io_.read_bytes), Comma(out), AppendUint(out, io_.write_bytes);
  else out.append("null,null");
  Comma(out);
  out.append(comm_);
  Comma(out);
  AppendJsonString(out, CgroupOf(pid, dir));
  out.push_back(']');
  return true;
}

// A process's cgroup, read once per process (pid and start time): a
// process that moves to another group keeps the first one here.
std::string_view ProcessScan::CgroupOf(uint32_t pid, const std::string& dir) {
  Known& known = known_[pid];
  if (known.start == stat_.start_ticks && known.seen) return known.path;
  known.start = stat_.start_ticks;
  known.seen = true;
  known.path = Slurp(proc_.Get(), (dir + "/cgroup").c_str()) ? CgroupV2Path(text_) : "";
  return known.path;
}

}  // namespace pm
