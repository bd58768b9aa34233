#include "common/output_file.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

#include "common/error.hh"
#include "common/io.hh"

namespace pm {
namespace {

std::string Directory(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The directory, when it is sticky and world-writable.
std::optional<struct stat> SharedDirectory(const std::string& path) {
  struct stat dir;
  if (stat(Directory(path).c_str(), &dir) != 0 || !S_ISDIR(dir.st_mode) ||
      (dir.st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
    return std::nullopt;
  return dir;
}

[[noreturn]] void Refuse(const std::string& path, const std::string& what) {
  throw SetupError("refusing " + path + ": " + what + " in the shared directory " +
                   Directory(path) + ", where another user may have planted it; remove it "
                   "or write elsewhere");
}

// A symlink at `path` in `dir`: followed if the caller's or dir's owner's.
UniqueFd FollowOwnLink(const std::string& path, const struct stat& link,
                       const struct stat& dir, int flags, unsigned mode) {
  if (link.st_uid != geteuid() && link.st_uid != dir.st_uid)
    Refuse(path, "a symbolic link owned by uid " + std::to_string(link.st_uid));
  return OpenAt(AT_FDCWD, path, flags, mode);
}

UniqueFd OpenInShared(const std::string& path, const struct stat& dir, int flags,
                      unsigned mode) {
  int fd;
  do {
    fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  // A symlink: ELOOP, or EACCES when O_CREAT meets another user's.
  if (fd < 0 && (errno == ELOOP || errno == EACCES)) {
    int err = errno;
    struct stat link;
    if (lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
      return FollowOwnLink(path, link, dir, flags, mode);
    if (err == ELOOP) Refuse(path, "an entry that changed while it was opened");
    throw SystemError(path, err);
  }
  if (fd < 0) throw SystemError(path);
  UniqueFd file = UniqueFd::Adopt(fd);
  struct stat st;
  if (fstat(fd, &st) != 0) throw SystemError(path);
  if (S_ISREG(st.st_mode) && st.st_nlink > 1)
    Refuse(path, "a file with " + std::to_string(st.st_nlink) + " hard links");
  return file;
}

}  // namespace

UniqueFd OpenOutputFile(const std::string& path, int flags, unsigned mode) {
  std::optional<struct stat> dir = SharedDirectory(path);
  if (!dir) return OpenAt(AT_FDCWD, path, flags, mode);
  UniqueFd fd = OpenInShared(path, *dir, flags & ~O_TRUNC, mode);
  struct stat st;
  if ((flags & O_TRUNC) && fstat(fd.Get(), &st) == 0 && S_ISREG(st.st_mode) &&
      ftruncate(fd.Get(), 0) != 0)
    throw SystemError(path);
  return fd;
}

}  // namespace pm
