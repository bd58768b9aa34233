#include "common/spawn.hh"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/error.hh"
#include "common/sanitizers.hh"

extern char** environ;

namespace pm {
namespace {

enum Step { kClone, kStack, kDup, kCloseRange, kDup2, kSetsid, kChdir, kExecve };
constexpr const char* kStepNames[] = {"clone",       "mmap",  "fcntl(F_DUPFD)",
                                      "close_range", "dup2",  "setsid",
                                      "chdir",       "execve"};

// The child runs on this stack, in the caller's memory (CLONE_VM): it
// needs a few frames of system-call wrappers, nothing more.
constexpr size_t kChildStack = 64 * 1024;

// ThreadSanitizer keeps its bookkeeping (each thread's clock, shadow stack
// and trace) in the process's memory, found through the calling thread's
// TLS: a child sharing that memory would write it as if it were the
// caller, and the reports that follow are false (its vfork interceptor
// makes vfork a fork for this reason). Under it the child gets a copy of
// the memory, still with the parent suspended until the execve.
#if defined(PM_THREAD_SANITIZER)
constexpr int kShareMemory = 0;
#else
constexpr int kShareMemory = CLONE_VM;
#endif

// Why the child failed: written by the child only when it fails, then it
// exits; read by the parent once it runs again (CLONE_VFORK: after the
// child's execve or exit). It lives in a MAP_SHARED page, so it reaches
// the parent with or without CLONE_VM.
struct ChildFailure {
  int step;
  int err;
};

struct ChildArgs {
  const SpawnSpec* spec;
  int* moved;   // one slot per map entry
  int above;    // exceeds every target
  char* const* envp;
  ChildFailure* failure;
};

// The kernel's struct sigaction (glibc's differs, and glibc refuses to
// touch the signals it keeps for itself).
struct KernelSigaction {
  void (*handler)(int);
  unsigned long flags;
  void (*restorer)();
  uint64_t mask;
};
constexpr int kKernelSignals = 64;
constexpr size_t kSigsetBytes = sizeof(uint64_t);

// Blocks every signal, glibc's internal ones too, and returns the old mask.
uint64_t BlockAllSignals() noexcept {
  uint64_t all = ~uint64_t{0}, old = 0;
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &old, kSigsetBytes);
  return old;
}

void SetSignalMask(uint64_t mask) noexcept {
  syscall(SYS_rt_sigprocmask, SIG_SETMASK, &mask, nullptr, kSigsetBytes);
}

// What follows runs in the child, which shares the caller's memory: raw
// system calls and their thin libc wrappers only, no allocation, no
// sanitizer instrumentation (its bookkeeping is the caller's).
#define PM_CHILD_CODE __attribute__((no_sanitize("address", "undefined", "thread")))

[[noreturn]] PM_CHILD_CODE void Fail(ChildArgs& a, int step) {
  a.failure->err = errno;
  a.failure->step = step;
  _exit(127);
}

// Marks every fd above 2 CLOEXEC; the dup2s that follow clear it on the
// targets. The loop is for kernels older than 5.11 (no CLOSE_RANGE_CLOEXEC).
PM_CHILD_CODE bool CloseOthersOnExec() {
  if (syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return true;
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  rlim_t cap = 1 << 20;  // no std::min: its instantiation would be instrumented
  int top = static_cast<int>(limit.rlim_cur < cap ? limit.rlim_cur : cap);
  for (int fd = 3; fd < top; ++fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0 && !(flags & FD_CLOEXEC)) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
  return true;
}

// Every disposition back to the default before the mask opens: a handler
// of the caller's must never run here, in its memory, and an ignored
// signal must not be passed on.
PM_CHILD_CODE void ResetSignals() {
  KernelSigaction dfl = {SIG_DFL, 0, nullptr, 0};
  for (int signo = 1; signo <= kKernelSignals; ++signo)
    if (signo != SIGKILL && signo != SIGSTOP)
      syscall(SYS_rt_sigaction, signo, &dfl, nullptr, kSigsetBytes);
}

PM_CHILD_CODE int RunChild(void* arg) {
  ChildArgs& a = *static_cast<ChildArgs*>(arg);
  const SpawnSpec& spec = *a.spec;
  ResetSignals();
  for (size_t i = 0; i < spec.fd_count; ++i)
    if ((a.moved[i] = fcntl(spec.fds[i].source, F_DUPFD_CLOEXEC, a.above)) < 0) Fail(a, kDup);
  if (!spec.keep_other_fds && !CloseOthersOnExec()) Fail(a, kCloseRange);
  for (size_t i = 0; i < spec.fd_count; ++i)  // dup2 clears FD_CLOEXEC on the target
    if (dup2(a.moved[i], spec.fds[i].target) < 0) Fail(a, kDup2);
  if (spec.new_session && setsid() < 0) Fail(a, kSetsid);
  if (spec.cwd && chdir(spec.cwd) != 0) Fail(a, kChdir);
  SetSignalMask(0);
  execve(spec.path, const_cast<char* const*>(spec.argv), a.envp);
  Fail(a, kExecve);
}

#undef PM_CHILD_CODE

int Failed(SpawnResult* result, int step, int err) {
  result->failed_step = kStepNames[step];
  return err;
}

// clone(CLONE_VM | CLONE_VFORK), as glibc's posix_spawn does: the child
// borrows the caller's page tables until its execve, so nothing of the
// caller's memory is copied or write-protected, whatever its size.
// The child's failure, if any, is written at the bottom of its stack's
// mapping (shared), far below the frames at its top.
// Returns the pid (the pidfd in *pidfd), or -1 with errno and *failure set.
pid_t CloneChild(ChildArgs& args, int* pidfd, ChildFailure* failure) {
  void* stack = mmap(nullptr, kChildStack, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED) {
    *failure = {kStack, errno};
    return -1;
  }
  args.failure = static_cast<ChildFailure*>(stack);
  *args.failure = {0, 0};
  uint64_t old_mask = BlockAllSignals();
  pid_t pid = clone(RunChild, static_cast<char*>(stack) + kChildStack,
                    kShareMemory | CLONE_VFORK | CLONE_PIDFD | SIGCHLD, &args, pidfd);
  int err = errno;
  SetSignalMask(old_mask);
  *failure = pid < 0 ? ChildFailure{kClone, err} : *args.failure;
  munmap(stack, kChildStack);
  return pid;
}

}  // namespace

int SpawnProcess(const SpawnSpec* spec, SpawnResult* result) noexcept {
  *result = {-1, -1, nullptr};
  if (!spec->path || !spec->argv || (spec->fd_count && !spec->fds))
    return Failed(result, kExecve, EINVAL);
  int above = 3;
  for (size_t i = 0; i < spec->fd_count; ++i) {
    if (spec->fds[i].target < 0) return Failed(result, kDup2, EBADF);
    above = std::max(above, spec->fds[i].target + 1);
  }
  int* moved = static_cast<int*>(std::calloc(spec->fd_count + 1, sizeof(int)));
  if (!moved) return Failed(result, kStack, ENOMEM);
  ChildArgs args = {spec, moved, above,
                    spec->envp ? const_cast<char* const*>(spec->envp) : environ, nullptr};
  int pidfd = -1;
  ChildFailure failure;
  pid_t pid = CloneChild(args, &pidfd, &failure);
  std::free(moved);
  if (pid < 0) return Failed(result, failure.step, failure.err);
  if (failure.err != 0) {  // the child has exited: reap it
    ReapChild(pid, nullptr, nullptr);
    ::close(pidfd);
    return Failed(result, failure.step, failure.err);
  }
  result->pid = pid;
  result->pidfd = pidfd;
  return 0;
}

SpawnedChild Spawn(const SpawnSpec& spec) {
  SpawnResult result;
  int err = SpawnProcess(&spec, &result);
  if (err != 0)
    throw SystemError(std::string("cannot start ") + (spec.path ? spec.path : "(null)") +
                          ": " + result.failed_step,
                      err);
  SpawnedChild child;
  child.pid = result.pid;
  child.pidfd = UniqueFd::Adopt(result.pidfd);
  return child;
}

bool ReapChild(pid_t pid, int* status, struct rusage* usage) noexcept {
  int got = 0;
  for (;;) {
    pid_t r = wait4(pid, &got, 0, usage);
    if (r == pid) {
      if (status) *status = got;
      return true;
    }
    if (r < 0 && errno == EINTR) continue;
    return false;
  }
}

std::vector<const char*> NullTerminated(const std::vector<std::string>& strings) {
  std::vector<const char*> out;
  out.reserve(strings.size() + 1);
  for (const std::string& s : strings) out.push_back(s.c_str());
  out.push_back(nullptr);
  return out;
}

}  // namespace pm
