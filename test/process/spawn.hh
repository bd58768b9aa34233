// Process-test helpers: spawn the real `perfmonger` binary with chosen fds
// mapped to chosen numbers, and wait on fds with deadlines (never a sleep).
//
// Every wait takes a Deadline; when it expires the helper throws
// DeadlineExpired, which fails the doctest case, and the Child destructor
// kills and reaps the process.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/unique_fd.hh"
#include "test/deadlines.h"

namespace pm::test {

using Deadline = std::chrono::steady_clock::time_point;
inline Deadline After(std::chrono::milliseconds ms) {
  return std::chrono::steady_clock::now() + ms;
}
// Generous: a healthy recorder answers in milliseconds (test/deadlines.h).
inline Deadline DefaultDeadline() {
  return After(std::chrono::milliseconds(PM_TEST_DEADLINE_MS));
}

struct DeadlineExpired : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// poll() one fd until one of `events` (or HUP/ERR) arrives; returns revents.
// Throws DeadlineExpired naming `what`.
short PollUntil(int fd, short events, Deadline deadline, const char* what);

// The binary under test: $PERFMONGER (set by meson).
std::string PerfmongerPath();
// $EMBEDDING_HARNESS.
std::string HarnessPath();

struct SpawnOptions {
  std::string program;             // default: PerfmongerPath()
  std::vector<std::string> args;   // argv[1..]
  // Child fd number <- this fd. The parent's copy is closed once the child
  // runs (hand over a dup to keep one). Works whatever the numbers are.
  std::vector<std::pair<int, UniqueFd>> fds;
  UniqueFd stdin_fd;               // default /dev/null
  std::string cwd;                 // default: inherited
  std::vector<std::string> env;    // "K=V", added or overriding
};

struct ExitResult {
  int code = -1;    // exit status, or -1 when killed by a signal
  int signal = 0;   // the signal that killed it
  std::string out;  // everything written to stdout
  std::string err;  // everything written to stderr
};

// Reads a pipe in lines, with deadlines.
class LineInput {
 public:
  LineInput() = default;
  explicit LineInput(UniqueFd fd) : fd_(std::move(fd)) {}
  // One line, "\n" included; at EOF the bytes left (maybe none: nullopt).
  std::optional<std::string> ReadLine(Deadline deadline);
  std::string ReadToEof(Deadline deadline);
  bool eof() const { return eof_; }

 private:
  bool Fill(Deadline deadline);
  UniqueFd fd_;
  std::string buf_;
  bool eof_ = false;
};

class Child {
 public:
  explicit Child(SpawnOptions options);
  ~Child();  // kills and reaps a child still running
  Child(Child&& other) noexcept;
  Child& operator=(Child&&) = delete;

  pid_t pid() const { return pid_; }
  void Signal(int signo) const;
  // Reads stdout and stderr to EOF and reaps the child, by the deadline.
  ExitResult Wait(Deadline deadline = DefaultDeadline());

 private:
  pid_t pid_ = -1;
  UniqueFd pidfd_;
  UniqueFd out_;
  UniqueFd err_;
  bool reaped_ = false;
};

// Runs to completion (stdin /dev/null) within the default deadline.
ExitResult Run(std::vector<std::string> args, std::string program = "");

// A fresh directory under /tmp (its real path), removed with its contents.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Any process, not only a child of ours (pidfd_open). A process that has
// exited counts as gone even while it is a zombie.
UniqueFd OpenPidfd(pid_t pid);          // invalid if the pid is gone
bool PidfdExited(int pidfd);            // without waiting
bool ProcessRunning(pid_t pid);
// Waits on a pidfd until `pid` exits; throws DeadlineExpired.
void WaitForExit(pid_t pid, Deadline deadline);

// Lines of `text` (each without its "\n"); a last line without "\n" counts.
std::vector<std::string> SplitLines(const std::string& text);

}  // namespace pm::test
