#include "daemon/collect/proc_file.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>

#include "common/error.hh"
#include "common/io.hh"

namespace pm {
namespace {

// `path` as the user finds it: below the --root directory (the real "/"
// unless a fake tree was given), so a message about a fake tree's
// proc/stat does not send them to /proc/stat. The root is named through
// its fd's /proc/self/fd link; "/" when that cannot be read.
std::string RootedName(int root_dirfd, std::string_view path) {
  std::string name = "/";
  if (root_dirfd >= 0) {
    char target[PATH_MAX];
    std::string link = "/proc/self/fd/" + std::to_string(root_dirfd);
    ssize_t n = ::readlink(link.c_str(), target, sizeof target);
    if (n > 0 && target[0] == '/') name.assign(target, static_cast<size_t>(n));
  }
  if (name.back() != '/') name.push_back('/');
  return name.append(path);
}

}  // namespace

ProcFile::ProcFile(int root_dirfd, std::string_view path, size_t max_bytes,
                   Delivery delivery)
    : name_(RootedName(root_dirfd, path)), max_bytes_(max_bytes), delivery_(delivery) {
  // O_NONBLOCK: a FIFO planted in a --root tree opens at once instead of
  // waiting for a writer (with the stop signals blocked: unkillable).
  try {
    fd_ = OpenAt(root_dirfd, std::string(path), O_RDONLY | O_NONBLOCK);
  } catch (const std::system_error& e) {
    throw SystemError("cannot open " + name_, e.code().value());
  }
  struct stat st;
  if (fstat(fd_.Get(), &st) != 0) throw SystemError("cannot open " + name_);
  if (!S_ISREG(st.st_mode))
    throw SetupError(name_ + " is not a regular file; /proc and /sys files are (check --root)");
  buf_.resize(std::min(kInitialBytes, max_bytes_));
}

size_t ProcFile::ReadAt(size_t offset, char* dst, size_t len) {
  for (;;) {
    ssize_t n = ::pread(fd_.Get(), dst, len, static_cast<off_t>(offset));
    if (n >= 0) return static_cast<size_t>(n);
    if (errno != EINTR) throw SystemError("cannot read " + name_);
  }
}

void ProcFile::Grow() {
  if (buf_.size() >= max_bytes_) {
    throw FormatError(name_ + ": longer than " + std::to_string(max_bytes_) +
                      " bytes; refusing to read more");
  }
  buf_.resize(std::min(buf_.size() * 2, max_bytes_));
}

std::string_view ProcFile::Read() {
  size_t used = 0;
  for (;;) {
    if (used == buf_.size()) {
      // A full buffer at the cap is fine only if EOF is right there.
      char probe;
      if (buf_.size() >= max_bytes_ && ReadAt(used, &probe, 1) == 0) break;
      Grow();
    }
    size_t want = buf_.size() - used;
    size_t n = ReadAt(used, buf_.data() + used, want);
    used += n;
    if (n == 0 || (delivery_ == Delivery::kWhole && n < want)) break;
  }
  return std::string_view(buf_.data(), used);
}

}  // namespace pm
