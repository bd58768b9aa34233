// One error policy: code throws these inside; loop callbacks and main()
// catch them, and only main() maps them to exit codes.
#pragma once

#include <stdexcept>
#include <string>
#include <system_error>

namespace pm {

// A failed system call: "what: strerror(errno)".
[[nodiscard]] std::system_error SystemError(const std::string& what, int err);
[[nodiscard]] std::system_error SystemError(const std::string& what);  // errno

// Malformed input text or data; `what` names the thing and the position.
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A mistake in how the program was invoked (flags, fds, metadata): the
// message names the fix. Maps to exit status 1.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace pm
