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

// The environment refuses what a correct invocation asked for (an output
// that cannot be created, a session file that is not ours, another session
// running): the message names the fix. Maps to exit status 1, like a
// UsageError: nothing was recorded.
class SetupError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace pm
