// The one way this project starts a program: clone(CLONE_VM | CLONE_VFORK)
// + execve with an fd map, a pidfd on the child, and exec failure reported
// to the caller. The child borrows the caller's memory until its execve,
// as glibc's posix_spawn does: nothing is copied or write-protected, so a
// caller with a large heap starts a child as fast as a small one and its
// next pass over that heap takes no copy-on-write faults.
//
// The fd map is applied with dup2 only, correct whatever numbers the parent's
// fds have (seeds/embedding.md §7: in a process with only stdio open, pipe()
// returns 3-6, the very numbers the child wants). In the child every source
// is first copied above the highest target, so no dup2 onto a target can
// clobber a source still to be placed, and a source already sitting on its
// own target still has its FD_CLOEXEC cleared. Every other fd above 2 is
// closed at exec (unless keep_other_fds); fds 0-2 absent from the map are
// inherited. Signal dispositions are reset to the default and the signal
// mask emptied (a parent that ignores SIGPIPE does not pass that on).
//
// The core (SpawnProcess) throws nothing, allocates only before the clone,
// and uses no C++ types, so the C embedding library can wrap it; Spawn() is
// the C++ face that owns the pidfd and throws. The thin wrappers most
// callers want (a program looked up on PATH, one pipe) are in
// common/child_spawn.hh.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

#include "common/unique_fd.hh"

namespace pm {

// The child gets the parent's fd `source` as fd number `target`.
struct SpawnFd {
  int target;
  int source;
};

// Zero-initialised fields mean: inherit (environment, cwd, session).
struct SpawnSpec {
  const char* path;           // passed to execve (no PATH search)
  const char* const* argv;    // NULL-terminated; argv[0] is the name shown
  const char* const* envp;    // NULL-terminated; null: the parent's environ
  const SpawnFd* fds;         // at most one entry per target
  size_t fd_count;
  const char* cwd;            // null: the parent's
  bool new_session;           // setsid(): no controlling terminal
  bool keep_other_fds;        // inherit fds above 2 that are not CLOEXEC
};

struct SpawnResult {
  pid_t pid;                // > 0 on success
  int pidfd;                // CLOEXEC; the caller owns it
  const char* failed_step;  // on failure: "clone", "dup2", "chdir", "execve"...
};

// Starts the child and returns once it has exec'd (0) or failed: then an
// errno value, `failed_step` names the call, and a child that existed has
// been reaped. Safe to call with any signals caught or blocked.
int SpawnProcess(const SpawnSpec* spec, SpawnResult* result) noexcept;

struct SpawnedChild {
  pid_t pid = -1;
  UniqueFd pidfd;  // readable once the child has exited
};

// `strings` as the NULL-terminated array SpawnSpec's argv and envp take
// (pointing into `strings`, which must outlive it).
std::vector<const char*> NullTerminated(const std::vector<std::string>& strings);

// SpawnProcess, throwing SystemError "cannot start PATH: STEP: REASON".
SpawnedChild Spawn(const SpawnSpec& spec);

// waitpid/wait4 for an exited child (retrying EINTR); `usage` may be null.
// Returns false (errno set) when there is nothing to reap.
bool ReapChild(pid_t pid, int* status, struct rusage* usage) noexcept;

}  // namespace pm
