#include "test/process/spawn.hh"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/deadline.hh"
#include "common/io.hh"
#include "common/child_spawn.hh"
#include "common/spawn.hh"

namespace pm::test {
namespace {

std::system_error Errno(const std::string& what) {
  return std::system_error(errno, std::generic_category(), what);
}

std::string EnvOrThrow(const char* name) {
  const char* value = std::getenv(name);
  if (!value || !*value)
    throw std::runtime_error(std::string("$") + name +
                             " is not set (run the tests through meson test)");
  return value;
}

int64_t Ns(Deadline deadline) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch())
      .count();
}

}  // namespace

short PollUntil(int fd, short events, Deadline deadline, const char* what) {
  struct pollfd p = {fd, events, 0};
  int n = pm::PollUntil(&p, 1, Ns(deadline));
  if (n < 0) throw Errno("poll");
  if (n == 0) throw DeadlineExpired(std::string("deadline expired waiting for ") + what);
  return p.revents;
}

std::string PerfmongerPath() { return EnvOrThrow("PERFMONGER"); }
std::string HarnessPath() { return EnvOrThrow("EMBEDDING_HARNESS"); }

bool LineInput::Fill(Deadline deadline) {
  if (eof_) return false;
  PollUntil(fd_.Get(), POLLIN, deadline, "a line from a pipe");
  char chunk[4096];
  ssize_t n;
  do {
    n = ::read(fd_.Get(), chunk, sizeof chunk);
  } while (n < 0 && errno == EINTR);
  if (n < 0) throw Errno("read");
  if (n == 0) eof_ = true;
  buf_.append(chunk, static_cast<size_t>(n));
  return n > 0;
}

std::optional<std::string> LineInput::ReadLine(Deadline deadline) {
  size_t nl;
  while ((nl = buf_.find('\n')) == std::string::npos && Fill(deadline)) {
  }
  if (nl == std::string::npos) {
    if (buf_.empty()) return std::nullopt;
    return std::exchange(buf_, {});
  }
  std::string line = buf_.substr(0, nl + 1);
  buf_.erase(0, nl + 1);
  return line;
}

std::string LineInput::ReadToEof(Deadline deadline) {
  while (Fill(deadline)) {
  }
  return std::exchange(buf_, {});
}

Child::Child(SpawnOptions options) {
  std::string program = options.program.empty() ? PerfmongerPath() : options.program;
  std::vector<std::string> args = {program};
  args.insert(args.end(), options.args.begin(), options.args.end());
  std::vector<std::string> env = MergedEnvironment(options.env);
  std::vector<const char*> argv = NullTerminated(args);
  std::vector<const char*> envp = NullTerminated(env);

  Pipe out = MakePipe();
  Pipe err = MakePipe();
  UniqueFd in = std::move(options.stdin_fd);
  if (!in) in = OpenAt(AT_FDCWD, "/dev/null", O_RDONLY);
  std::vector<SpawnFd> map = {
      {0, in.Get()}, {1, out.write_end.Get()}, {2, err.write_end.Get()}};
  for (const auto& [target, fd] : options.fds) map.push_back({target, fd.Get()});

  SpawnSpec spec{};
  spec.path = program.c_str();
  spec.argv = argv.data();
  spec.envp = envp.data();
  spec.fds = map.data();
  spec.fd_count = map.size();
  spec.cwd = options.cwd.empty() ? nullptr : options.cwd.c_str();
  SpawnedChild child = Spawn(spec);
  pid_ = child.pid;
  pidfd_ = std::move(child.pidfd);
  out_ = std::move(out.read_end);
  err_ = std::move(err.read_end);
}

Child::Child(Child&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)),
      pidfd_(std::move(other.pidfd_)),
      out_(std::move(other.out_)),
      err_(std::move(other.err_)),
      reaped_(std::exchange(other.reaped_, true)) {}

Child::~Child() {
  if (pid_ <= 0 || reaped_) return;
  kill(pid_, SIGKILL);
  try {
    PollUntil(pidfd_.Get(), POLLIN, DefaultDeadline(), "a killed child");
  } catch (const std::exception&) {
    return;  // unreapable: leave it rather than hang the suite
  }
  waitpid(pid_, nullptr, WNOHANG);
}

void Child::Signal(int signo) const {
  if (kill(pid_, signo) != 0) throw Errno("kill");
}

ExitResult Child::Wait(Deadline deadline) {
  ExitResult result;
  bool exited = false;
  while (!exited || out_ || err_) {
    struct pollfd p[3] = {{exited ? -1 : pidfd_.Get(), POLLIN, 0},
                          {out_ ? out_.Get() : -1, POLLIN, 0},
                          {err_ ? err_.Get() : -1, POLLIN, 0}};
    int n = pm::PollUntil(p, 3, Ns(deadline));
    if (n < 0) throw Errno("poll");
    if (n == 0)
      throw DeadlineExpired("deadline expired waiting for pid " +
                            std::to_string(pid_) + " to exit");
    if (p[0].revents) exited = true;
    UniqueFd* fds[2] = {&out_, &err_};
    std::string* sinks[2] = {&result.out, &result.err};
    for (int i = 0; i < 2; ++i) {
      if (!p[i + 1].revents) continue;
      char chunk[4096];
      ssize_t n = ::read(fds[i]->Get(), chunk, sizeof chunk);
      if (n > 0) sinks[i]->append(chunk, static_cast<size_t>(n));
      else if (n == 0 || errno != EINTR) fds[i]->Reset();
    }
  }
  int status = 0;
  if (!ReapChild(pid_, &status, nullptr)) throw Errno("waitpid");
  reaped_ = true;
  if (WIFEXITED(status)) result.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

ExitResult Run(std::vector<std::string> args, std::string program) {
  SpawnOptions options;
  options.program = std::move(program);
  options.args = std::move(args);
  return Child(std::move(options)).Wait();
}

TempDir::TempDir() {
  char templ[] = "/tmp/pm-process-XXXXXX";
  if (!mkdtemp(templ)) throw Errno("mkdtemp");
  path_ = std::filesystem::canonical(templ).string();
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

UniqueFd OpenPidfd(pid_t pid) {
  int fd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0 && errno != ESRCH) throw Errno("pidfd_open");
  return UniqueFd::Adopt(fd);
}

bool PidfdExited(int pidfd) {
  struct pollfd p = {pidfd, POLLIN, 0};
  int n = pm::PollUntil(&p, 1, 0);  // a deadline already past: no wait
  if (n < 0) throw Errno("poll");
  return n > 0;
}

bool ProcessRunning(pid_t pid) {
  UniqueFd fd = OpenPidfd(pid);
  return fd && !PidfdExited(fd.Get());
}

void WaitForExit(pid_t pid, Deadline deadline) {
  UniqueFd fd = OpenPidfd(pid);
  if (!fd) return;
  std::string what = "pid " + std::to_string(pid) + " to exit";
  PollUntil(fd.Get(), POLLIN, deadline, what.c_str());
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

}  // namespace pm::test
