#include "daemon/ready_fd.hh"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <system_error>

#include "common/io.hh"

namespace pm {

void ReadyFd::SendAndClose(std::string_view line) noexcept {
  if (!fd_) return;
  try {
    WriteAll(fd_.Get(), line);
  } catch (const std::system_error& e) {
    std::fprintf(stderr,
                 "perfmonger record: note: the ready line could not be sent "
                 "(%s); recording goes on\n",
                 e.code().message().c_str());
  }
  Close();
}

// A stdio number left free would be taken by the next open() (a /proc
// file, the output) and later messages would land there: dup2 closes the
// pipe end and puts /dev/null in its place in one step.
void ReadyFd::Close() noexcept {
  if (!fd_ || fd_.Get() > 2) return fd_.Reset();
  int number = fd_.Release();
  int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) {
    ::close(number);
    return;
  }
  ::dup2(null_fd, number);  // not CLOEXEC: a stdio fd is meant to be inherited
  ::close(null_fd);
}

}  // namespace pm
