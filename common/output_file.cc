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

[[noreturn]] void NobodyReads(const std::string& path) {
  throw SetupError(path + " is a FIFO that nobody reads; start its reader first");
}

// open(2) that never waits for a FIFO's reader (O_NONBLOCK: ENXIO instead).
// Returns -1 with errno on failure.
int OpenNoWait(const std::string& path, int flags, unsigned mode) {
  int fd;
  do {
    fd = ::open(path.c_str(), flags | O_NONBLOCK | O_CLOEXEC, mode);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

// Neither the caller's nor the shared directory owner's: planted.
bool Foreign(const struct stat& entry, const struct stat& dir) {
  return entry.st_uid != geteuid() && entry.st_uid != dir.st_uid;
}

std::string KindOwned(const struct stat& entry) {
  const char* kind = S_ISLNK(entry.st_mode)    ? "a symbolic link"
                     : S_ISFIFO(entry.st_mode) ? "a FIFO"
                     : S_ISREG(entry.st_mode)  ? "a file"
                                               : "an entry";
  return std::string(kind) + " owned by uid " + std::to_string(entry.st_uid);
}

// A symlink at `path` in `dir`: followed if the caller's or dir's owner's.
int FollowOwnLink(const std::string& path, const struct stat& link, const struct stat& dir,
                  int flags, unsigned mode) {
  if (Foreign(link, dir)) Refuse(path, KindOwned(link));
  return OpenNoWait(path, flags, mode);
}

// The open(2) failure `err` at `path` in `dir`, explained where it can be.
[[noreturn]] void FailedInShared(const std::string& path, const struct stat& dir, int err) {
  struct stat entry;
  bool there = lstat(path.c_str(), &entry) == 0;
  if (there && Foreign(entry, dir)) Refuse(path, KindOwned(entry));
  if (err == ENXIO) NobodyReads(path);
  if (err == ELOOP) Refuse(path, "an entry that changed while it was opened");
  throw SystemError(path, err);
}

UniqueFd OpenInShared(const std::string& path, const struct stat& dir, int flags,
                      unsigned mode) {
  int fd = OpenNoWait(path, flags | O_NOFOLLOW, mode);
  bool followed = false;  // a link of ours: what it names is not in `dir`
  // A symlink: ELOOP, or EACCES when O_CREAT meets another user's.
  if (fd < 0 && (errno == ELOOP || errno == EACCES)) {
    int err = errno;
    struct stat link;
    followed = lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
    if (followed) fd = FollowOwnLink(path, link, dir, flags, mode);
    else errno = err;
  }
  if (fd < 0) FailedInShared(path, dir, errno);
  UniqueFd file = UniqueFd::Adopt(fd);
  struct stat st;
  if (fstat(fd, &st) != 0) throw SystemError(path);
  if (!followed && Foreign(st, dir)) Refuse(path, KindOwned(st));
  if (S_ISREG(st.st_mode) && st.st_nlink > 1)
    Refuse(path, "a file with " + std::to_string(st.st_nlink) + " hard links");
  return file;
}

UniqueFd OpenElsewhere(const std::string& path, int flags, unsigned mode) {
  int fd = OpenNoWait(path, flags, mode);
  if (fd < 0 && errno == ENXIO) NobodyReads(path);
  if (fd < 0) throw SystemError(path);
  return UniqueFd::Adopt(fd);
}

// What a failed write of `path` says: a full file system named as such.
std::system_error WriteFailure(const std::string& path, int err) {
  bool full = err == ENOSPC || err == EDQUOT;
  return SystemError("writing " + path +
                         (full ? " (the file system holding " + Directory(path) + " is full)"
                               : std::string()),
                     err);
}

}  // namespace

UniqueFd OpenOutputFile(const std::string& path, int flags, unsigned mode) {
  std::optional<struct stat> dir = SharedDirectory(path);
  UniqueFd fd = dir ? OpenInShared(path, *dir, flags & ~O_TRUNC, mode)
                    : OpenElsewhere(path, flags, mode);
  struct stat st;
  bool regular = fstat(fd.Get(), &st) == 0 && S_ISREG(st.st_mode);
  if (dir && (flags & O_TRUNC) && regular && ftruncate(fd.Get(), 0) != 0)
    throw SystemError(path);
  int fl = fcntl(fd.Get(), F_GETFL);
  if (!(flags & O_NONBLOCK) && (fl < 0 || fcntl(fd.Get(), F_SETFL, fl & ~O_NONBLOCK) != 0))
    throw SystemError(path);
  return fd;
}

void WriteOutputFile(const std::string& path, std::string_view bytes, unsigned mode) {
  UniqueFd fd = OpenOutputFile(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
  struct stat st;
  bool regular = fstat(fd.Get(), &st) == 0 && S_ISREG(st.st_mode);
  int err = 0;
  try {
    WriteAll(fd.Get(), bytes);
  } catch (const std::system_error& e) {
    err = e.code().value();
  }
  if (::close(fd.Release()) != 0 && err == 0) err = errno;
  if (err == 0) return;
  if (regular) ::unlink(path.c_str());
  throw WriteFailure(path, err);
}

}  // namespace pm
