#include "daemon/collect/thread_group_cpu.hh"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>

#include "common/error.hh"
#include "common/io.hh"

namespace pm {
namespace {

constexpr size_t kSchedstatBytes = 256;  // three numbers and a newline

// The clock of process `pid`, when it is a process of this system.
std::optional<clockid_t> ProcessClock(std::string_view pid) {
  pid_t n = 0;
  if (std::from_chars(pid.data(), pid.data() + pid.size(), n).ec != std::errc()) return {};
  clockid_t id;
  if (clock_getcpuclockid(n, &id) != 0) return {};
  return id;
}

// A directory entry's name as a thread id, or 0 ("." and "..").
uint32_t TidOf(const char* name) {
  uint32_t tid = 0;
  std::string_view s(name);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), tid);
  return ec == std::errc() && end == s.data() + s.size() ? tid : 0;
}

}  // namespace

bool IsRealRoot(int root_dirfd) {
  struct stat a, b;
  return fstat(root_dirfd, &a) == 0 && stat("/", &b) == 0 && a.st_dev == b.st_dev &&
         a.st_ino == b.st_ino;
}

ThreadGroupCpu::ThreadGroupCpu(int root_dirfd, std::string_view pid, bool use_clock)
    : dir_("proc/" + std::string(pid) + "/task"),
      task_dir_(OpenAt(root_dirfd, dir_, O_RDONLY | O_DIRECTORY)) {
  if (use_clock) clock_ = ProcessClock(pid);
}

ThreadGroupCpu::Times ThreadGroupCpu::Read() {
  Times t;
  if (clock_) {
    timespec ts;
    if (clock_gettime(*clock_, &ts) != 0) throw SystemError("process clock", ESRCH);
    t.run_ns = static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000u + static_cast<uint64_t>(ts.tv_nsec);
  }
  ScanThreads();
  Times sum = SumThreads();
  t.wait_ns = sum.wait_ns;
  t.slices = sum.slices;
  if (!clock_) t.run_ns = sum.run_ns;
  return t;
}

// The directory's listing, sorted; threads that left move their last
// reading to departed_, new ones are opened.
void ThreadGroupCpu::ScanThreads() {
  if (lseek(task_dir_.Get(), 0, SEEK_SET) != 0) throw SystemError("cannot rewind /" + dir_);
  tids_.clear();
  alignas(8) char buf[4096];
  for (;;) {
    ssize_t n = getdents64(task_dir_.Get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw SystemError("cannot list /" + dir_);
    if (n == 0) break;
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const dirent64*>(buf + at);
      if (uint32_t tid = TidOf(e->d_name)) tids_.push_back(tid);
      at += e->d_reclen;
    }
  }
  // An empty listing: the process was reaped (its task dir is stale).
  if (tids_.empty()) throw SystemError("/" + dir_, ESRCH);
  std::sort(tids_.begin(), tids_.end());
  // One merge of two sorted lists: each thread kept is moved once (a few
  // pointers), none is reopened.
  next_.clear();
  auto old = threads_.begin();
  for (uint32_t tid : tids_) {
    for (; old != threads_.end() && old->tid < tid; ++old) Depart(*old);
    if (old != threads_.end() && old->tid == tid) next_.push_back(std::move(*old++));
    else Open(tid);
  }
  for (; old != threads_.end(); ++old) Depart(*old);
  std::swap(threads_, next_);
}

void ThreadGroupCpu::Depart(const Thread& gone) {
  departed_.run_ns += gone.last.run_ns;
  departed_.wait_ns += gone.last.wait_ns;
  departed_.slices += gone.last.slices;
}

// A thread new since the last listing, into next_.
void ThreadGroupCpu::Open(uint32_t tid) {
  try {
    next_.push_back({tid, ProcFile(task_dir_.Get(), std::to_string(tid) + "/schedstat",
                                   kSchedstatBytes, ProcFile::Delivery::kWhole), {}});
  } catch (const std::system_error& e) {
    if (e.code().value() != ENOENT && e.code().value() != ESRCH) throw;  // exited since
  }
}

ThreadGroupCpu::Times ThreadGroupCpu::SumThreads() {
  Times sum{departed_.run_ns, departed_.wait_ns, departed_.slices};
  for (Thread& t : threads_) {
    try {
      std::string_view text = t.file.Read();
      if (!text.empty()) ParseSchedstat(text, t.last, t.file.name());
    } catch (const std::system_error& e) {
      if (e.code().value() != ESRCH && e.code().value() != ENOENT) throw;
      // Exited since the listing: its last reading stands (departed next time).
    }
    sum.run_ns += t.last.run_ns;
    sum.wait_ns += t.last.wait_ns;
    sum.slices += t.last.slices;
  }
  return sum;
}

}  // namespace pm
