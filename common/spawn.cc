#include "common/spawn.hh"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "common/error.hh"

extern char** environ;

namespace pm {
namespace {

enum Step { kFork, kPipe, kDup, kCloseRange, kDup2, kSetsid, kChdir, kExecve, kPidfd };
constexpr const char* kStepNames[] = {"fork",  "pipe2",  "fcntl(F_DUPFD)",
                                      "close_range", "dup2", "setsid",
                                      "chdir", "execve", "pidfd_open"};

// What a failing child writes on the report pipe (one write < PIPE_BUF:
// atomic). EOF without it means execve succeeded (the pipe is CLOEXEC).
struct ChildFailure {
  int step;
  int err;
};

[[noreturn]] void ReportAndExit(int report_fd, int step) {
  ChildFailure failure{step, errno};
  ssize_t ignored = ::write(report_fd, &failure, sizeof failure);
  (void)ignored;
  _exit(127);
}

// Marks every fd above 2 CLOEXEC; the dup2s that follow clear it on the
// targets. The loop is for kernels older than 5.11 (no CLOSE_RANGE_CLOEXEC).
bool CloseOthersOnExec() {
  if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return true;
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return false;
  int top = static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
  for (int fd = 3; fd < top; ++fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags >= 0 && !(flags & FD_CLOEXEC)) fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
  }
  return true;
}

void ResetSignals() {
  struct sigaction dfl = {};
  dfl.sa_handler = SIG_DFL;
  for (int signo = 1; signo < NSIG; ++signo)
    if (signo != SIGKILL && signo != SIGSTOP) sigaction(signo, &dfl, nullptr);
}

// Between fork and exec: async-signal-safe calls only, no allocation.
// `moved` has room for one fd per map entry; `above` exceeds every target.
[[noreturn]] void RunChild(const SpawnSpec& spec, int* moved, int report_fd, int above,
                           char* const* envp) {
  ResetSignals();  // before unblocking: no parent handler runs in the child
  int report = fcntl(report_fd, F_DUPFD_CLOEXEC, above);
  if (report < 0) ReportAndExit(report_fd, kDup);
  for (size_t i = 0; i < spec.fd_count; ++i)
    if ((moved[i] = fcntl(spec.fds[i].source, F_DUPFD_CLOEXEC, above)) < 0)
      ReportAndExit(report, kDup);
  if (!spec.keep_other_fds && !CloseOthersOnExec())
    ReportAndExit(report, kCloseRange);
  for (size_t i = 0; i < spec.fd_count; ++i)  // dup2 clears FD_CLOEXEC on the target
    if (dup2(moved[i], spec.fds[i].target) < 0) ReportAndExit(report, kDup2);
  if (spec.new_session && setsid() < 0) ReportAndExit(report, kSetsid);
  if (spec.cwd && chdir(spec.cwd) != 0) ReportAndExit(report, kChdir);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  execve(spec.path, const_cast<char* const*>(spec.argv), envp);
  ReportAndExit(report, kExecve);
}

// In the parent: the child's report, or 0 once it has exec'd.
int ReadChildReport(int fd, int* step) {
  ChildFailure failure;
  ssize_t n;
  do {
    n = ::read(fd, &failure, sizeof failure);
  } while (n < 0 && errno == EINTR);
  if (n == 0) return 0;
  if (n != static_cast<ssize_t>(sizeof failure)) {
    *step = kExecve;
    return n < 0 ? errno : EIO;
  }
  *step = failure.step;
  return failure.err;
}

int Failed(SpawnResult* result, int step, int err) {
  result->failed_step = kStepNames[step];
  return err;
}

void KillAndReap(pid_t pid) {
  kill(pid, SIGKILL);
  ReapChild(pid, nullptr, nullptr);
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
  if (!moved) return Failed(result, kFork, ENOMEM);
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) {
    int err = errno;
    std::free(moved);
    return Failed(result, kPipe, err);
  }
  char* const* envp = spec->envp ? const_cast<char* const*>(spec->envp) : environ;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);  // no handler may run in the child
  pid_t pid = fork();
  if (pid == 0) RunChild(*spec, moved, report[1], above, envp);
  int fork_err = errno;
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  std::free(moved);
  ::close(report[1]);
  if (pid < 0) {
    ::close(report[0]);
    return Failed(result, kFork, fork_err);
  }
  int step = kExecve;
  int err = ReadChildReport(report[0], &step);
  ::close(report[0]);
  if (err != 0) {
    ReapChild(pid, nullptr, nullptr);  // it has exited (or is about to)
    return Failed(result, step, err);
  }
  // Safe after fork: our unreaped child's pid cannot be recycled.
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    err = errno;
    KillAndReap(pid);
    return Failed(result, kPidfd, err);
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
