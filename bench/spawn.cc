#include "bench/spawn.hh"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "common/deadline.hh"
#include "common/io.hh"
#include "common/spawn.hh"

namespace pm::bench {
namespace {

[[noreturn]] void Fail(const std::string& what) {
  throw std::runtime_error(what + ": " + std::strerror(errno));
}

// Runs argv[0] with `fds` as the child's fds kReadyFd, kReadyFd + 1, ...
// (stdio inherited, every other fd closed).
Child Start(const std::vector<std::string>& argv, const std::vector<int>& fds) {
  std::vector<const char*> args = NullTerminated(argv);
  std::vector<SpawnFd> map;
  for (size_t i = 0; i < fds.size(); ++i)
    map.push_back({kReadyFd + static_cast<int>(i), fds[i]});
  SpawnSpec spec{};
  spec.path = args[0];
  spec.argv = args.data();
  spec.fds = map.data();
  spec.fd_count = map.size();
  Child child;
  child.spawn_ns = NowMonoNs();
  SpawnedChild spawned = Spawn(spec);
  child.pid = spawned.pid;
  child.pidfd = std::move(spawned.pidfd);
  return child;
}

int64_t DeadlineIn(int timeout_ms) { return NowMonoNs() + timeout_ms * 1'000'000LL; }

}  // namespace

Child::Child(Child&& o) noexcept
    : pid(std::exchange(o.pid, -1)),
      pidfd(std::move(o.pidfd)),
      ready(std::move(o.ready)),
      stop(std::move(o.stop)),
      cmd(std::move(o.cmd)),
      ack(std::move(o.ack)),
      spawn_ns(o.spawn_ns) {}

Child& Child::operator=(Child&& o) noexcept {
  if (this == &o) return *this;
  Kill();
  pid = std::exchange(o.pid, -1);
  pidfd = std::move(o.pidfd);
  ready = std::move(o.ready);
  stop = std::move(o.stop);
  cmd = std::move(o.cmd);
  ack = std::move(o.ack);
  spawn_ns = o.spawn_ns;
  return *this;
}

void Child::Kill() noexcept {
  if (pid <= 0) return;
  kill(pid, SIGKILL);
  ReapChild(pid, nullptr, nullptr);
  pid = -1;
}

Child Spawn(const std::vector<std::string>& argv, bool control) {
  Pipe ready = MakePipe();
  Pipe stop = MakePipe();
  Pipe cmd, ack;
  std::vector<int> fds = {ready.write_end.Get(), stop.read_end.Get()};
  if (control) {
    cmd = MakePipe();
    ack = MakePipe();
    fds.insert(fds.end(), {cmd.read_end.Get(), ack.write_end.Get()});
  }
  Child child = Start(argv, fds);
  child.ready = std::move(ready.read_end);
  child.stop = std::move(stop.write_end);
  child.cmd = std::move(cmd.write_end);
  child.ack = std::move(ack.read_end);
  return child;  // the child-side ends close here, in the parent
}

int64_t WaitReady(Child& child, bool first_byte, int timeout_ms, std::string* line) {
  int64_t deadline = DeadlineIn(timeout_ms);
  std::string got;
  char buf[512];
  for (;;) {
    if (!WaitForFd(child.ready.Get(), POLLIN, deadline))
      throw std::runtime_error("no ready line within " + std::to_string(timeout_ms) + " ms");
    ssize_t n = read(child.ready.Get(), buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail("reading the ready pipe");
    if (n == 0)
      throw std::runtime_error("ready pipe closed without a ready line (got '" + got + "')");
    got.append(buf, static_cast<size_t>(n));
    if (first_byte || got.find('\n') != std::string::npos) break;
  }
  int64_t t = NowMonoNs();
  child.ready.Reset();
  if (line) *line = std::move(got);
  return t;
}

bool ExitedBy(const Child& child, int64_t deadline_ns) {
  return ReadableBy(child.pidfd.Get(), deadline_ns);
}

bool ReadableBy(int fd, int64_t deadline_ns) { return WaitForFd(fd, POLLIN, deadline_ns); }

Child SpawnEcho(const std::string& path, size_t reply_bytes) {
  Pipe cmd = MakePipe();
  Pipe ack = MakePipe();
  // fd 3 and 4 unused (/dev/null): the echo answers on the recorder's 5 and 6.
  UniqueFd null = OpenAt(AT_FDCWD, "/dev/null", O_RDWR);
  Child child = Start({path, std::to_string(reply_bytes)},
                      {null.Get(), null.Get(), cmd.read_end.Get(), ack.write_end.Get()});
  child.cmd = std::move(cmd.write_end);
  child.ack = std::move(ack.read_end);
  return child;
}

Exit Reap(Child& child, int timeout_ms, bool allow_failure) {
  Exit e;
  if (!WaitForFd(child.pidfd.Get(), POLLIN, DeadlineIn(timeout_ms)))
    throw std::runtime_error("child " + std::to_string(child.pid) + " did not exit within " +
                             std::to_string(timeout_ms) + " ms");
  e.exit_ns = NowMonoNs();
  if (!ReapChild(child.pid, &e.status, &e.usage)) Fail("wait4");
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
  *stop_ns = NowMonoNs();
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
