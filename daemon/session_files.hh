// The files of a background session (record --background):
//
//   $TMPDIR/perfmonger-<user>-session.pid   the pid in decimal, no newline:
//                                           PerfMonger's format, read by
//                                           scripts with a plain int parse
//   $TMPDIR/perfmonger-<user>-session.lock  held with flock(LOCK_EX) by the
//                                           running session; holds what
//                                           proves its identity (pid, the
//                                           process start time from
//                                           /proc/PID/stat, the output) and
//                                           the user's command line
//
// A session of ours is live exactly while its lock is held, so a pidfile
// left by a crash is stale by construction and is cleaned under the lock.
// A PerfMonger 1.0 session has only the pidfile: a pidfile naming a live
// process of the caller's real uid whose command line is a perfmonger
// recorder (and not this program) is such a session; any other pidfile is
// stale (a pid reused by another user's process is never signalled). The
// lock file is never unlinked (another process may be waiting on it). Both
// files are created 0600 with O_NOFOLLOW; every open is non-blocking and
// checked with fstat, so a symlink, a FIFO or any non-regular file, a file
// owned by another user or one with more than one link (another name for
// some file, made with ln) at either path is refused (SetupError), never
// followed, waited on or overwritten.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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
  uint64_t process_start = 0;      // /proc/PID/stat field 22, clock ticks
  int64_t start_ns = 0;            // CLOCK_REALTIME when the session began
  std::string output;              // "" when unknown (PerfMonger 1.0)
  std::vector<std::string> args;   // the command line the user typed
  bool perfmonger_1_0 = false;     // known by its pidfile only
};

// The environment variable through which the launcher hands the user's
// command line to the background child, for --status to show.
inline constexpr char kSessionArgsEnv[] = "PERFMONGER_SESSION_ARGS";
std::string EncodeSessionArgs(const std::vector<std::string>& args);

// The running side: holds the lock and owns the pidfile while it lives.
class SessionLock {
 public:
  // Takes the lock (SetupError if another session, ours or PerfMonger
  // 1.0's, runs, naming its pid, or if a path is not a regular file of
  // ours), records the state, replaces a stale pidfile and writes ours.
  SessionLock(const SessionPaths& paths, const std::string& output);
  ~SessionLock();  // removes the pidfile, then releases the lock
  SessionLock(const SessionLock&) = delete;
  SessionLock& operator=(const SessionLock&) = delete;

 private:
  SessionPaths paths_;
  UniqueFd lock_;
};

struct SessionLookup {
  std::optional<SessionState> live;
  std::string removed_stale;  // why a stale pidfile was removed, or ""
};

// The observing side (--status, --kill, and the launcher's early check):
// the session running, or none. With `remove_stale`, a stale pidfile is
// removed (under a shared lock, so no starting session loses its own) and
// the reason reported. Throws SetupError for a path that is not a regular
// file of ours.
SessionLookup FindSession(const SessionPaths& paths, bool remove_stale);

// True when nobody holds the session lock any more.
bool SessionLockReleased(const SessionPaths& paths);

}  // namespace pm
