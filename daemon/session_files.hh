// The files of a background session (record --background):
//
//   $TMPDIR/perfmonger-<user>-session.pid   the pid in decimal, no newline:
//                                           PerfMonger's format, read by
//                                           scripts with a plain int parse
//   $TMPDIR/perfmonger-<user>-session.lock  held with flock(LOCK_EX) by the
//                                           running session; holds what
//                                           proves its identity (pid, the
//                                           process start time from
//                                           /proc/PID/stat, the output)
//
// A session is live exactly while its lock is held, so a pidfile left by a
// crash is stale by construction and is cleaned under the lock. The lock
// file is never unlinked (another process may be waiting on it). Both files
// are created 0600 with O_NOFOLLOW; a symlink or a file owned by another
// user at either path is refused, never followed or overwritten.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "common/unique_fd.hh"

namespace pm {

struct SessionPaths {
  std::string pidfile;
  std::string lockfile;
};

// From $TMPDIR (default /tmp) and the name of the effective uid.
SessionPaths DefaultSessionPaths();

struct SessionState {
  pid_t pid = 0;
  uint64_t process_start = 0;  // /proc/PID/stat field 22, clock ticks
  int64_t start_ns = 0;        // CLOCK_REALTIME when the session began
  std::string output;
};

// Field 22 of /proc/PID/stat; nullopt if the process does not exist.
std::optional<uint64_t> ProcessStartTime(pid_t pid);

// The running side: holds the lock and owns the pidfile while it lives.
class SessionLock {
 public:
  // Takes the lock (throws UsageError if another session holds it, naming
  // its pid, or if a path is a symlink or not ours), records the state,
  // replaces a stale pidfile and writes ours.
  SessionLock(const SessionPaths& paths, const std::string& output);
  ~SessionLock();  // removes the pidfile, then releases the lock
  SessionLock(const SessionLock&) = delete;
  SessionLock& operator=(const SessionLock&) = delete;

 private:
  SessionPaths paths_;
  UniqueFd lock_;
};

// The observing side (--status, --kill, and the launcher's early check):
// the state of the session holding the lock, or nullopt when none does.
// Throws UsageError for a symlink or a foreign file at the lock path.
std::optional<SessionState> FindLiveSession(const SessionPaths& paths);

// True when nobody holds the session lock any more.
bool SessionLockReleased(const SessionPaths& paths);

}  // namespace pm
