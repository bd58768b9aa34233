#include "common/small_file.hh"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "common/io.hh"

namespace pm {

std::string ReadSmallFile(const std::string& path) {
  UniqueFd fd;
  try {
    fd = OpenAt(AT_FDCWD, path, O_RDONLY | O_NONBLOCK);
  } catch (const std::system_error&) {
    return {};
  }
  std::string text;
  char buf[4096];
  for (off_t at = 0;;) {
    ssize_t n = ::pread(fd.Get(), buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buf, static_cast<size_t>(n));
    at += n;
  }
}

}  // namespace pm
