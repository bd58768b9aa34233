#include "daemon/inherited_fd.hh"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/error.hh"

namespace pm {
namespace {

std::string Prefix(const InheritedFdSpec& spec) {
  return spec.flag + "=" + std::to_string(spec.fd) + ": fd " +
         std::to_string(spec.fd);
}

void CheckDirection(const InheritedFdSpec& spec, int status_flags) {
  int mode = status_flags & O_ACCMODE;
  if (spec.direction == FdDirection::kRead && mode == O_WRONLY)
    throw UsageError(Prefix(spec) +
                     " is open write-only (the write end of a pipe?); pass "
                     "the read end and keep the write end in the parent");
  if (spec.direction == FdDirection::kWrite && mode == O_RDONLY)
    throw UsageError(Prefix(spec) +
                     " is open read-only (the read end of a pipe?); pass the "
                     "write end and keep the read end in the parent");
}

void CheckWatchable(const InheritedFdSpec& spec, int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) throw SystemError(spec.flag);
  if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
    throw UsageError(Prefix(spec) + " is a " +
                     (S_ISREG(st.st_mode) ? "regular file" : "directory") +
                     ", which cannot be watched; pass the read end of a pipe");
}

}  // namespace

void CheckDistinctFds(const std::vector<InheritedFdSpec>& specs) {
  for (size_t i = 0; i < specs.size(); ++i)
    for (size_t j = i + 1; j < specs.size(); ++j)
      if (specs[i].fd == specs[j].fd)
        throw UsageError(specs[i].flag + " and " + specs[j].flag +
                         " both name fd " + std::to_string(specs[i].fd) +
                         "; give each role its own fd (one pipe each)");
}

// The usual cause is the seed recipe's trap: with only stdio open, pipe()
// returns 3-6, and the child closes the "originals" it has just dup2'ed
// onto 3 and 4. So every closed fd is named at once, with that fix.
void CheckAllOpen(const std::vector<InheritedFdSpec>& specs) {
  std::string flags, fds;
  int closed = 0, highest = 0;
  for (const InheritedFdSpec& spec : specs) {
    highest = std::max(highest, spec.fd);
    if (spec.fd >= 0 && fcntl(spec.fd, F_GETFD) >= 0) continue;
    std::string sep = closed == 0 ? "" : ", ";
    flags += sep + spec.flag + "=" + std::to_string(spec.fd);
    fds += (closed == 0 ? "" : " and ") + std::to_string(spec.fd);
    ++closed;
  }
  if (closed == 0) return;
  throw UsageError(flags + ": " + (closed == 1 ? "fd " : "fds ") + fds +
                   (closed == 1 ? " is" : " are") +
                   " closed: the parent's child code closed " +
                   (closed == 1 ? "it" : "them") +
                   " after dup2 (close the pipe ends before dup2, or move them above " +
                   std::to_string(highest) + ")");
}

// A stop pipe whose write end we hold ourselves never reaches EOF: the
// recording would never stop (a parent that forgot to close its copy in
// the child). Other fds on the same pipe open for writing are refused.
void CheckNoOwnWriter(const InheritedFdSpec& spec) {
  struct stat pipe_st;
  if (fstat(spec.fd, &pipe_st) != 0 || !S_ISFIFO(pipe_st.st_mode)) return;
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return;  // no /proc: nothing to check against
  int own = dirfd(dir);
  int writer = -1;
  while (struct dirent* entry = readdir(dir)) {
    char* end;
    long fd = std::strtol(entry->d_name, &end, 10);
    if (*end != '\0' || end == entry->d_name || fd == spec.fd || fd == own) continue;
    struct stat st;
    int fd_int = static_cast<int>(fd);
    if (fstat(fd_int, &st) != 0 || st.st_dev != pipe_st.st_dev ||
        st.st_ino != pipe_st.st_ino)
      continue;
    int mode = fcntl(fd_int, F_GETFL) & O_ACCMODE;
    if (mode == O_WRONLY || mode == O_RDWR) {
      writer = fd_int;
      break;
    }
  }
  closedir(dir);
  if (writer < 0) return;
  throw UsageError(spec.flag + "=" + std::to_string(spec.fd) + ": fd " +
                   std::to_string(writer) +
                   " is the write end of the same pipe, so the recorder would never "
                   "see EOF; close fd " + std::to_string(writer) +
                   " in the child (or set FD_CLOEXEC on it) before exec");
}

UniqueFd AdoptInheritedFd(const InheritedFdSpec& spec) {
  int fd = spec.fd;
  int status_flags = fcntl(fd, F_GETFL);
  if (fd < 0 || status_flags < 0) CheckAllOpen({spec});
  CheckDirection(spec, status_flags);
  if (spec.must_be_watchable) CheckWatchable(spec, fd);
  int fd_flags = fcntl(fd, F_GETFD);
  if (fd_flags >= 0) fcntl(fd, F_SETFD, fd_flags | FD_CLOEXEC);
  return UniqueFd::Adopt(fd);
}

}  // namespace pm
