#include "common/io.hh"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>

#include "common/error.hh"

namespace pm {

Pipe MakePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw SystemError("pipe");
  return {UniqueFd::Adopt(fds[0]), UniqueFd::Adopt(fds[1])};
}

UniqueFd OpenAt(int dirfd, const std::string& path, int flags, unsigned mode) {
  int fd;
  do {
    fd = ::openat(dirfd, path.c_str(), flags | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) throw SystemError(path);
  return UniqueFd::Adopt(fd);
}

std::string AbsolutePath(const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd)) throw SystemError("getcwd");
  std::string abs = cwd;
  if (abs.back() != '/') abs.push_back('/');
  return abs + path;
}

void EnsureStdioOpen() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    // open() returns the lowest free number: this one. Not CLOEXEC: a
    // stdio fd is meant to be inherited.
    int null_fd = ::open("/dev/null", O_RDWR);
    if (null_fd >= 0 && null_fd != fd) ::close(null_fd);
  }
}

ssize_t ReadAvailable(int fd, char* buf, size_t capacity) {
  int available = 0;
  if (ioctl(fd, FIONREAD, &available) == 0 && available > 0)
    capacity = std::min(capacity, static_cast<size_t>(available));
  ssize_t n;
  do {
    n = ::read(fd, buf, capacity);
  } while (n < 0 && errno == EINTR);
  return n;
}

void WriteAll(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw SystemError("write");
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
}

}  // namespace pm
