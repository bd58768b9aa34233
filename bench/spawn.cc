#include "bench/spawn.hh"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <stdexcept>
#include <utility>

namespace pm::bench {
namespace {

static_assert(kStopFd == kReadyFd + 1 && kCmdFd == kReadyFd + 2 && kAckFd == kReadyFd + 3,
              "ExecChild maps its pipe ends onto consecutive fds");

[[noreturn]] void Fail(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

struct PipeFds {
  UniqueFd read_end, write_end;
};

PipeFds MakeCloexecPipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) Fail("pipe2");
  return {UniqueFd::Adopt(fds[0]), UniqueFd::Adopt(fds[1])};
}

// In the forked child, async-signal-safe calls only. The pipe ends may sit
// on any numbers, 3..6 included, so they all go to high numbers first; the
// dup2 onto 3, 4, ... then never meets itself (or a pipe end not yet moved)
// and clears FD_CLOEXEC. `fds[i]` goes to fd 3 + i.
[[noreturn]] void ExecChild(const int* fds, int n, char* const* argv) {
  int high[4];
  for (int i = 0; i < n; ++i)
    if ((high[i] = fcntl(fds[i], F_DUPFD, 100)) < 0) _exit(126);
  for (int i = 0; i < n; ++i)
    if (dup2(high[i], kReadyFd + i) < 0) _exit(126);
  syscall(SYS_close_range, static_cast<unsigned>(kReadyFd + n), ~0U, 0);
  execv(argv[0], argv);
  _exit(127);
}

int PollOne(int fd, int timeout_ms) {
  struct pollfd p = {fd, POLLIN, 0};
  for (;;) {
    int n = poll(&p, 1, timeout_ms);
    if (n >= 0) return n;
    if (errno != EINTR) Fail("poll");
  }
}

// In the parent, right after fork(): the child's pid and a pidfd on it.
void Track(Child& child, pid_t pid) {
  child.pid = pid;
  int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) Fail("pidfd_open");
  child.pidfd = UniqueFd::Adopt(pidfd);
}

int RemainingMs(int64_t deadline_ns) {
  int64_t left = deadline_ns - NowNs();
  if (left <= 0) return 0;
  return static_cast<int>((left + 999'999) / 1'000'000);
}

}  // namespace

int64_t NowNs() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1'000'000'000LL + ts.tv_nsec;
}

Child::Child(Child&& o) noexcept
    : pid(std::exchange(o.pid, -1)),
      pidfd(std::move(o.pidfd)),
      ready(std::move(o.ready)),
      stop(std::move(o.stop)),
      cmd(std::move(o.cmd)),
      ack(std::move(o.ack)),
      fork_ns(o.fork_ns) {}

Child& Child::operator=(Child&& o) noexcept {
  if (this == &o) return *this;
  Kill();
  pid = std::exchange(o.pid, -1);
  pidfd = std::move(o.pidfd);
  ready = std::move(o.ready);
  stop = std::move(o.stop);
  cmd = std::move(o.cmd);
  ack = std::move(o.ack);
  fork_ns = o.fork_ns;
  return *this;
}

void Child::Kill() noexcept {
  if (pid <= 0) return;
  kill(pid, SIGKILL);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  pid = -1;
}

Child Spawn(const std::vector<std::string>& argv, bool control) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  PipeFds ready = MakeCloexecPipe();
  PipeFds stop = MakeCloexecPipe();
  PipeFds cmd, ack;
  if (control) {
    cmd = MakeCloexecPipe();
    ack = MakeCloexecPipe();
  }
  const int fds[4] = {ready.write_end.Get(), stop.read_end.Get(), cmd.read_end.Get(),
                      ack.write_end.Get()};

  Child child;
  child.fork_ns = NowNs();
  pid_t pid = fork();
  if (pid < 0) Fail("fork");
  if (pid == 0) ExecChild(fds, control ? 4 : 2, args.data());
  Track(child, pid);
  child.ready = std::move(ready.read_end);
  child.stop = std::move(stop.write_end);
  child.cmd = std::move(cmd.write_end);
  child.ack = std::move(ack.read_end);
  return child;  // the child-side ends close here, in the parent
}

int64_t WaitReady(Child& child, bool first_byte, int timeout_ms, std::string* line) {
  int64_t deadline = NowNs() + timeout_ms * 1'000'000LL;
  std::string got;
  char buf[512];
  for (;;) {
    if (PollOne(child.ready.Get(), RemainingMs(deadline)) == 0)
      throw std::runtime_error("no ready line within " + std::to_string(timeout_ms) + " ms");
    ssize_t n = read(child.ready.Get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail("reading the ready pipe");
    if (n == 0)
      throw std::runtime_error("ready pipe closed without a ready line (got '" + got + "')");
    got.append(buf, static_cast<size_t>(n));
    if (first_byte || got.find('\n') != std::string::npos) break;
  }
  int64_t t = NowNs();
  child.ready.Reset();
  if (line) *line = std::move(got);
  return t;
}

bool ExitedBy(const Child& child, int64_t deadline_ns) {
  return ReadableBy(child.pidfd.Get(), deadline_ns);
}

bool ReadableBy(int fd, int64_t deadline_ns) {
  return PollOne(fd, RemainingMs(deadline_ns)) > 0;
}

Child ForkEcho(size_t reply_bytes) {
  PipeFds cmd = MakeCloexecPipe();
  PipeFds ack = MakeCloexecPipe();
  std::string reply(reply_bytes > 0 ? reply_bytes - 1 : 0, 'x');
  reply += '\n';
  Child child;
  child.fork_ns = NowNs();
  pid_t pid = fork();
  if (pid < 0) Fail("fork");
  if (pid == 0) {  // the same fd shuffle as ExecChild, then a read/write loop
    int r = fcntl(cmd.read_end.Get(), F_DUPFD, 100);
    int w = fcntl(ack.write_end.Get(), F_DUPFD, 100);
    if (r < 0 || w < 0 || dup2(r, kCmdFd) < 0 || dup2(w, kAckFd) < 0) _exit(126);
    syscall(SYS_close_range, kReadyFd, kCmdFd - 1, 0);
    syscall(SYS_close_range, kAckFd + 1, ~0U, 0);
    char buf[512];
    for (;;) {
      ssize_t n = read(kCmdFd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(n == 0 ? 0 : 1);
      if (write(kAckFd, reply.data(), reply.size()) != static_cast<ssize_t>(reply.size()))
        _exit(1);
    }
  }
  Track(child, pid);
  child.cmd = std::move(cmd.write_end);
  child.ack = std::move(ack.read_end);
  return child;
}

Exit Reap(Child& child, int timeout_ms, bool allow_failure) {
  Exit e;
  if (PollOne(child.pidfd.Get(), timeout_ms) == 0)
    throw std::runtime_error("child " + std::to_string(child.pid) + " did not exit within " +
                             std::to_string(timeout_ms) + " ms");
  e.exit_ns = NowNs();
  while (wait4(child.pid, &e.status, 0, &e.usage) < 0)
    if (errno != EINTR) Fail("wait4");
  child.pid = -1;
  child.pidfd.Reset();
  child.stop.Reset();
  child.cmd.Reset();
  child.ack.Reset();
  if (!allow_failure && !(WIFEXITED(e.status) && WEXITSTATUS(e.status) == 0))
    throw std::runtime_error("child failed: status " + std::to_string(e.status));
  return e;
}

Exit StopAndReap(Child& child, int64_t* stop_ns) {
  *stop_ns = NowNs();
  child.stop.Reset();
  return Reap(child);
}

double CpuSeconds(const struct rusage& u) {
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

long VmHwmKiB(pid_t pid) {
  std::string path = "/proc/" + std::to_string(pid) + "/status";
  FILE* f = std::fopen(path.c_str(), "re");
  if (!f) return 0;
  char line[256];
  long kib = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
  std::fclose(f);
  return kib;
}

}  // namespace pm::bench
