#include "daemon/file_sink.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "common/error.hh"
#include "common/io.hh"
#include "common/output_file.hh"
#include "daemon/lock_holder.hh"

namespace pm {
namespace {

// A FIFO without a reader is refused at once (OpenOutputFile never waits
// for one) instead of hanging setup with the stop signals blocked.
UniqueFd OpenOutput(const std::string& path) {
  if (path == "-") {
    int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (fd < 0) throw SystemError("standard output");
    return UniqueFd::Adopt(fd);
  }
  try {
    return OpenOutputFile(path, O_WRONLY | O_CREAT, 0644);
  } catch (const std::system_error& e) {
    if (e.code().value() == EISDIR)  // not "create its directory": it exists
      throw SetupError(path + " is a directory: -l names the recording file, as in -l " +
                       path + (path.ends_with('/') ? "" : "/") + "perfmonger.pgr.gz");
    throw;
  }
}

// A POSIX record lock, not flock: F_GETLK tells who holds it. The recorder
// opens its output once, so no other close() of ours can drop the lock.
// A holder that lets go between the two calls is tried again, once.
void LockOutput(int fd, const std::string& path) {
  struct flock lock = {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
  struct flock holder = lock;
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (fcntl(fd, F_SETLK, &lock) == 0) return;
    if (errno != EACCES && errno != EAGAIN) return;  // e.g. no locks on this fs
    holder = lock;
    if (fcntl(fd, F_GETLK, &holder) != 0) holder.l_pid = 0;
    if (holder.l_type != F_UNLCK) break;
  }
  throw UsageError(LockRefusal(path, FindLockHolder(holder)));
}

}  // namespace

void RequireOutputPath(const std::string& path) {
  if (path.empty())
    throw UsageError("-l '': the output path is empty; name a file, or - for standard "
                     "output");
}

FileSink::FileSink(const std::string& path) : path_(path), fd_(OpenOutput(path)) {
  struct stat st;
  if (fstat(fd_.Get(), &st) != 0) throw SystemError(path_);
  regular_ = S_ISREG(st.st_mode);
  if (!regular_) return;
  LockOutput(fd_.Get(), path_);
  if (ftruncate(fd_.Get(), 0) != 0) throw SystemError(path_);
}

void FileSink::Write(std::string_view bytes) {
  if (regular_) CheckLength();
  try {
    WriteAll(fd_.Get(), bytes);
  } catch (const std::system_error& e) {
    throw SystemError("writing " + path_, e.code().value());
  }
  bytes_written_ += bytes.size();
}

void FileSink::Finish() {
  if (regular_ && fsync(fd_.Get()) != 0) throw SystemError("fsync " + path_);
}

void FileSink::CheckIntact() const {
  struct stat st;
  if (!regular_ || fstat(fd_.Get(), &st) != 0) return;
  if (st.st_nlink == 0)
    throw OutputLost(path_ + " was deleted while recording: everything recorded in it is "
                             "lost");
  // A cut that a write overtook (see CheckLength): that write landed at its
  // old offset past the new end, after a hole, which ours never leave.
  off_t at = lseek(fd_.Get(), 0, SEEK_CUR);
  off_t hole = at < 0 ? -1 : lseek(fd_.Get(), 0, SEEK_HOLE);
  if (at >= 0 && lseek(fd_.Get(), at, SEEK_SET) != at) throw SystemError("seeking " + path_);
  if (hole >= 0 && hole < st.st_size) Truncated();
}

// Before each write: once one lands at its old offset past the new end,
// the size is right again, and a cut within the file's last block leaves
// no hole for CheckIntact to find (the write fills the block). So this
// fstat stays on every write, the recorder's one syscall a sample beyond
// its reads and its write.
void FileSink::CheckLength() const {
  struct stat st;
  if (fstat(fd_.Get(), &st) == 0 && static_cast<uint64_t>(st.st_size) < bytes_written_)
    Truncated();
}

void FileSink::Truncated() const {
  throw OutputLost(path_ + " was truncated by another process while recording: the " +
                   std::to_string(bytes_written_) + " bytes written to it are lost");
}

void FileSink::RemoveFile() noexcept {
  if (regular_) ::unlink(path_.c_str());
}

bool FileSink::TruncateTo(uint64_t bytes) noexcept {
  if (!regular_) return true;
  if (ftruncate(fd_.Get(), static_cast<off_t>(bytes)) != 0) return false;
  bytes_written_ = bytes;
  return true;
}

void FileSink::Close() {
  if (::close(fd_.Release()) != 0) throw SystemError("closing " + path_);
}

}  // namespace pm
