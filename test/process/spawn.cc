#include "test/process/spawn.hh"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/close_range.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/io.hh"

extern char** environ;

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

// Built before fork(): the child only calls async-signal-safe functions.
std::vector<std::string> MergedEnv(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string_view kv = *e;
    bool overridden = std::any_of(extra.begin(), extra.end(), [&](const auto& x) {
      return x.substr(0, x.find('=') + 1) == kv.substr(0, kv.find('=') + 1);
    });
    if (!overridden) env.emplace_back(kv);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// In the child, between fork and exec. Every source is first copied above
// every target, so a dup2 onto a target can never clobber a source that is
// still to be placed (the trap of seeds/embedding.md §7).
[[noreturn]] void ExecChild(const std::vector<std::pair<int, int>>& map,
                            const char* cwd, const char* program,
                            char* const* argv, char* const* envp) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int signo : {SIGINT, SIGTERM, SIGPIPE, SIGCHLD}) signal(signo, SIG_DFL);
  close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);  // inherit nothing unasked
  int above = 0;
  for (const auto& [target, source] : map) above = std::max(above, target + 1);
  int moved[16];
  size_t n = std::min(map.size(), std::size(moved));
  for (size_t i = 0; i < n; ++i) {
    moved[i] = fcntl(map[i].second, F_DUPFD_CLOEXEC, above);
    if (moved[i] < 0) _exit(126);
  }
  for (size_t i = 0; i < n; ++i)
    if (dup2(moved[i], map[i].first) < 0) _exit(126);  // clears CLOEXEC
  if (*cwd && chdir(cwd) != 0) _exit(126);
  execve(program, argv, envp);
  _exit(127);
}

}  // namespace

short PollUntil(int fd, short events, Deadline deadline, const char* what) {
  for (;;) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      throw DeadlineExpired(std::string("deadline expired waiting for ") + what);
    struct pollfd p = {fd, events, 0};
    int n = poll(&p, 1, static_cast<int>(left.count()));
    if (n < 0 && errno != EINTR) throw Errno("poll");
    if (n > 0) return p.revents;
  }
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
  std::vector<std::string> env = MergedEnv(options.env);
  std::vector<char*> argv = CStrings(args);
  std::vector<char*> envp = CStrings(env);

  Pipe out = MakePipe();
  Pipe err = MakePipe();
  UniqueFd in = std::move(options.stdin_fd);
  if (!in) in = OpenAt(AT_FDCWD, "/dev/null", O_RDONLY);
  std::vector<std::pair<int, int>> map = {
      {0, in.Get()}, {1, out.write_end.Get()}, {2, err.write_end.Get()}};
  for (const auto& [target, fd] : options.fds) map.emplace_back(target, fd.Get());
  if (map.size() > 16) throw std::invalid_argument("Child: at most 16 fds");

  pid_ = fork();
  if (pid_ < 0) throw Errno("fork");
  if (pid_ == 0)
    ExecChild(map, options.cwd.c_str(), program.c_str(), argv.data(), envp.data());
  pidfd_ = UniqueFd::Adopt(static_cast<int>(syscall(SYS_pidfd_open, pid_, 0)));
  if (!pidfd_) throw Errno("pidfd_open");
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
    auto left = std::chrono::ceil<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0)
      throw DeadlineExpired("deadline expired waiting for pid " +
                            std::to_string(pid_) + " to exit");
    if (poll(p, 3, static_cast<int>(left.count())) < 0 && errno != EINTR)
      throw Errno("poll");
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
  if (waitpid(pid_, &status, WNOHANG) != pid_) throw Errno("waitpid");
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
  int n;
  do {
    n = poll(&p, 1, 0);
  } while (n < 0 && errno == EINTR);
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
