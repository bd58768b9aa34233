#include "daemon/collect/pid_dir.hh"

#include <dirent.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <string_view>

#include "common/error.hh"
#include "common/unique_fd.hh"

namespace pm {
namespace {

uint32_t PidOf(const char* name) {
  uint32_t pid = 0;
  std::string_view s(name);
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), pid);
  return ec == std::errc() && end == s.data() + s.size() ? pid : 0;
}

}  // namespace

void ListPids(int dirfd, std::vector<uint32_t>& out) {
  out.clear();
  if (lseek(dirfd, 0, SEEK_SET) != 0) throw SystemError("cannot rewind a /proc directory");
  alignas(8) char buf[8192];
  for (;;) {
    ssize_t n = getdents64(dirfd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw SystemError("cannot list a /proc directory");
    if (n == 0) return;
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const dirent64*>(buf + at);
      if (uint32_t pid = PidOf(e->d_name)) out.push_back(pid);
      at += e->d_reclen;
    }
  }
}

bool SlurpAt(int dirfd, const char* name, std::string& text, size_t max_bytes,
             struct stat* owner) {
  int fd = ::openat(dirfd, name, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  UniqueFd file = UniqueFd::Adopt(fd);
  if (owner && fstat(fd, owner) != 0) return false;
  text.clear();
  for (;;) {
    const size_t at = text.size();
    if (at >= max_bytes) return false;
    text.resize(at + 4096);
    ssize_t n = ::read(fd, text.data() + at, 4096);
    if (n < 0 && errno == EINTR) {
      text.resize(at);
      continue;
    }
    text.resize(at + static_cast<size_t>(n < 0 ? 0 : n));
    if (n < 0) return false;
    if (n == 0) return true;
  }
}

int64_t ProcessClockNs(uint32_t pid) {
  clockid_t id;
  timespec ts;
  if (clock_getcpuclockid(static_cast<pid_t>(pid), &id) != 0 || clock_gettime(id, &ts) != 0)
    return -1;
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace pm
