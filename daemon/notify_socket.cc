#include "daemon/notify_socket.hh"

#include <stddef.h>
#include <stdlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/error.hh"
#include "proto/text.hh"

namespace pm {

std::optional<std::string> TakeNotifySocket() {
  const char* value = getenv("NOTIFY_SOCKET");
  std::optional<std::string> address;
  if (value && *value) address = value;
  unsetenv("NOTIFY_SOCKET");
  return address;
}

NotifySocket::NotifySocket(const std::string& address) : address_(address) {
  const std::string at = "NOTIFY_SOCKET '" + Printable(address) + "': ";
  if (address.size() < 2 || (address[0] != '/' && address[0] != '@'))
    throw SetupError(at + "not an absolute path or an @abstract name (unset it outside a "
                          "systemd Type=notify service)");
  if (address.size() > sizeof to_.sun_path)
    throw SetupError(at + "longer than a socket address (" +
                     std::to_string(sizeof to_.sun_path) + " bytes)");
  to_.sun_family = AF_UNIX;
  std::memcpy(to_.sun_path, address.data(), address.size());
  if (address[0] == '@') to_.sun_path[0] = '\0';  // the abstract namespace: no NUL after
  // Exactly the bytes given: an abstract name's length is its own, and
  // a path needs no NUL when the length is passed.
  to_size_ = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + address.size());
  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) throw SystemError("NOTIFY_SOCKET: socket");
  fd_ = UniqueFd::Adopt(fd);
}

void NotifySocket::Send(std::string_view state) noexcept {
  ssize_t n;
  do {
    n = sendto(fd_.Get(), state.data(), state.size(), MSG_NOSIGNAL,
               reinterpret_cast<const sockaddr*>(&to_), to_size_);
  } while (n < 0 && errno == EINTR);
  if (n >= 0 || warned_) return;
  warned_ = true;
  std::fprintf(stderr, "perfmonger record: warning: NOTIFY_SOCKET %s: cannot send %.*s: %s\n",
               Printable(address_).c_str(), static_cast<int>(state.size()), state.data(),
               std::strerror(errno));
}

}  // namespace pm
