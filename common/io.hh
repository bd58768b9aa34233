// Small fd helpers: CLOEXEC from birth, EINTR handled, errors thrown.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

#include "common/unique_fd.hh"

namespace pm {

Pipe MakePipe();  // pipe2(O_CLOEXEC)

// open/openat with O_CLOEXEC added; throws SystemError naming `path`.
UniqueFd OpenAt(int dirfd, const std::string& path, int flags, unsigned mode = 0);

// Opens /dev/null on any of fds 0, 1, 2 that is closed, so that no file
// opened later takes a stdio number (and an error message written to
// "stderr" cannot land in a recording).
void EnsureStdioOpen();

// `path` made absolute against the current directory (not canonicalised:
// symlinks stay as the user named them).
std::string AbsolutePath(const std::string& path);

// One read of at most what the fd reports available (FIONREAD), so a fd
// the kernel has just reported readable does not block even without
// O_NONBLOCK. Returns the count, 0 at EOF, -1 with errno on error.
ssize_t ReadAvailable(int fd, char* buf, size_t capacity);

// Writes every byte, retrying on EINTR and short writes; throws on error.
void WriteAll(int fd, std::string_view bytes);

}  // namespace pm
