#include "daemon/inherited_fd.hh"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
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

UniqueFd AdoptInheritedFd(const InheritedFdSpec& spec) {
  int fd = spec.fd;
  int status_flags = fcntl(fd, F_GETFL);
  if (fd < 0 || status_flags < 0)
    throw UsageError(Prefix(spec) +
                     " is not open; keep the pipe end open in the child and "
                     "clear FD_CLOEXEC on it before exec");
  CheckDirection(spec, status_flags);
  if (spec.must_be_watchable) CheckWatchable(spec, fd);
  int fd_flags = fcntl(fd, F_GETFD);
  if (fd_flags >= 0) fcntl(fd, F_SETFD, fd_flags | FD_CLOEXEC);
  return UniqueFd::Adopt(fd);
}

}  // namespace pm
