// Descriptors handed to us by the parent (--ready-fd, --stop-fd), checked
// once at start-up and then adopted.
//
// The checks turn the classic wiring mistakes into setup errors that name
// the fix (exit 1, nothing written) instead of a recording that silently
// ends at once: an fd that is not open, a pipe end of the wrong direction,
// a regular file where EOF can never mean "stop". Adopted fds get
// FD_CLOEXEC (a per-descriptor flag, invisible to the parent); their file
// status flags, which the parent shares, are never changed.
#pragma once

#include <string>
#include <vector>

#include "common/unique_fd.hh"

namespace pm {

enum class FdDirection { kRead, kWrite };

struct InheritedFdSpec {
  std::string flag;        // "--stop-fd", for messages
  int fd = -1;
  FdDirection direction = FdDirection::kRead;
  bool must_be_watchable = false;  // will be polled for EOF / input
};

// Throws UsageError when two roles name the same fd number.
void CheckDistinctFds(const std::vector<InheritedFdSpec>& specs);

// Throws UsageError naming every fd of `specs` that is not open.
void CheckAllOpen(const std::vector<InheritedFdSpec>& specs);

// Throws UsageError naming another open fd that writes to the same pipe
// as spec.fd (the stop fd), which would keep it from ever reaching EOF.
void CheckNoOwnWriter(const InheritedFdSpec& spec);

// Throws UsageError naming the fix; on success owns the fd.
UniqueFd AdoptInheritedFd(const InheritedFdSpec& spec);

}  // namespace pm
