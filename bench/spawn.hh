// Spawning the program under test the way an embedding caller does
// (seeds/embedding.md §7), through common/spawn.hh: the ready pipe's write
// end on fd 3 and the stop pipe's read end on fd 4 (and, for the command
// protocol, the command pipe's read end on fd 5 and the reply pipe's write
// end on fd 6), a pidfd to wait on with a deadline (common/deadline.hh),
// and wait4() for the exit status and rusage.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/clock.hh"
#include "common/unique_fd.hh"

namespace pm::bench {

inline constexpr int kReadyFd = 3;
inline constexpr int kStopFd = 4;
inline constexpr int kCmdFd = 5;  // with Spawn(..., true) only
inline constexpr int kAckFd = 6;

// A running child. The bench holds the ready pipe's read end and the stop
// pipe's write end; closing `stop` is the graceful stop.
struct Child {
  Child() = default;
  Child(Child&& o) noexcept;
  Child& operator=(Child&& o) noexcept;
  ~Child() { Kill(); }
  // A child still running (an error path) is killed and reaped.
  void Kill() noexcept;

  pid_t pid = -1;
  UniqueFd pidfd;
  UniqueFd ready;
  UniqueFd stop;
  UniqueFd cmd;  // command pipe, write end (Spawn(..., true) only)
  UniqueFd ack;  // reply pipe, read end
  int64_t spawn_ns = 0;  // just before the spawn
};

struct Exit {
  int status = 0;
  struct rusage usage {};
  int64_t exit_ns = 0;  // when the pidfd reported the exit
};

// argv[0] is the program path; `control` adds the command and reply pipes
// on kCmdFd and kAckFd. Throws std::runtime_error.
Child Spawn(const std::vector<std::string>& argv, bool control = false);

// Reads the ready pipe until a "\n" (or, with `first_byte`, any byte).
// Returns the time the read completed; throws on EOF or after timeout_ms.
int64_t WaitReady(Child& child, bool first_byte, int timeout_ms,
                  std::string* line = nullptr);

// Polls the pidfd until `deadline_ns`; true if the child has exited.
bool ExitedBy(const Child& child, int64_t deadline_ns);

// Polls `fd` until `deadline_ns`; true if it is readable (or at EOF).
bool ReadableBy(int fd, int64_t deadline_ns);

// The floor for the command round-trip (bench/floor_echo.cc at `path`):
// reads kCmdFd and answers each read with `reply_bytes` bytes ending in
// "\n" on kAckFd; exits 0 at EOF. Close `cmd` before reaping it.
Child SpawnEcho(const std::string& path, size_t reply_bytes);

// Waits (bounded) for the exit, then reaps with wait4(). Throws on timeout
// and, unless `allow_failure`, on a non-zero exit status.
Exit Reap(Child& child, int timeout_ms = 30'000, bool allow_failure = false);

// Stops (closes the stop pipe) and reaps; returns the stop time in *stop_ns.
Exit StopAndReap(Child& child, int64_t* stop_ns);

double CpuSeconds(const struct rusage& usage);  // user + sys

// VmHWM of a live process in KiB, 0 if unreadable.
long VmHwmKiB(pid_t pid);

}  // namespace pm::bench
