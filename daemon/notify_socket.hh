// systemd's readiness protocol (Type=notify), without libsystemd: when the
// service manager sets $NOTIFY_SOCKET, the recorder sends "READY=1" once
// the first sample is on disk (the moment it writes its ready line) and
// "STOPPING=1" when it begins to stop. Each is one datagram on an
// AF_UNIX socket of its own, sent to the address the variable names: a
// path ("/run/systemd/notify"), or after '@' a name in the abstract
// namespace. The variable is taken out of the environment at the start,
// so no process the recorder starts sees it.
//
// Owns its socket (CLOEXEC). A send that fails (the manager gone, its
// queue full: the socket is non-blocking) is said once on stderr and
// changes nothing else: the recording goes on.
#pragma once

#include <sys/socket.h>
#include <sys/un.h>

#include <optional>
#include <string>
#include <string_view>

#include "common/unique_fd.hh"

namespace pm {

// $NOTIFY_SOCKET's value, removed from the environment; none if unset or
// empty.
std::optional<std::string> TakeNotifySocket();

class NotifySocket {
 public:
  // Throws SetupError naming the fix for an address that is neither an
  // absolute path nor @NAME, or too long for a socket address.
  explicit NotifySocket(const std::string& address);

  void Send(std::string_view state) noexcept;  // "READY=1", "STOPPING=1"

 private:
  std::string address_;  // as given, for messages
  sockaddr_un to_ = {};
  socklen_t to_size_ = 0;
  UniqueFd fd_;
  bool warned_ = false;
};

}  // namespace pm
