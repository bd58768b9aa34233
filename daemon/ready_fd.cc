#include "daemon/ready_fd.hh"

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
  fd_.Reset();
}

}  // namespace pm
