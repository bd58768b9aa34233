#include "daemon/launcher.hh"

#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <optional>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/clock.hh"
#include "proto/json.hh"

namespace pm {
namespace {

constexpr int kChildReadyFd = 3;
constexpr char kErrorPrefix[] = "error ";

struct Outcome {
  std::string ready;   // "ready", "error", "timeout"
  std::string reason;
  std::optional<int> exit_code;
  std::optional<int> signal;
};

// In the forked child: only the fd moves that exec needs, then exec.
[[noreturn]] void ExecChild(char* const* argv, int ready_fd, int null_fd, int log_fd) {
  setsid();
  // Above every target first, so no dup2 below can clobber a source.
  int ready = fcntl(ready_fd, F_DUPFD_CLOEXEC, 10);
  int null_high = fcntl(null_fd, F_DUPFD_CLOEXEC, 10);
  int log_high = fcntl(log_fd, F_DUPFD_CLOEXEC, 10);
  if (ready < 0 || null_high < 0 || log_high < 0) _exit(127);
  if (dup2(null_high, 0) < 0 || dup2(log_high, 1) < 0 || dup2(log_high, 2) < 0 ||
      dup2(ready, kChildReadyFd) < 0)
    _exit(127);
  execv("/proc/self/exe", argv);
  _exit(127);
}

std::vector<char*> Argv(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  return argv;
}

// Reaps the child once it has exited (bounded by `deadline`).
void Reap(pid_t pid, int pidfd, int64_t deadline, Outcome& out) {
  struct pollfd p = {pidfd, POLLIN, 0};
  int64_t left_ms = (deadline - NowMonoNs()) / 1'000'000;
  if (poll(&p, 1, static_cast<int>(std::max<int64_t>(left_ms, 0))) <= 0) return;
  int status = 0;
  if (waitpid(pid, &status, WNOHANG) != pid) return;
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
}

Outcome Judge(const std::string& line, bool eof) {
  if (line.starts_with("{\"event\":\"ready\"")) return {"ready", "", {}, {}};
  if (line.starts_with(kErrorPrefix))
    return {"error", line.substr(sizeof kErrorPrefix - 1), {}, {}};
  if (eof && line.empty())
    return {"error", "the recorder exited before it was ready", {}, {}};
  return {"error", "unexpected readiness line from the recorder", {}, {}};
}

// Waits for one line on `ready` (or its EOF), the child's exit, or the deadline.
Outcome Wait(pid_t pid, int ready, int pidfd, int64_t deadline) {
  std::string line;
  for (;;) {
    int64_t left_ms = (deadline - NowMonoNs()) / 1'000'000;
    if (left_ms <= 0) return {"timeout", "", {}, {}};
    struct pollfd p = {ready, POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(left_ms));
    if (n < 0 && errno != EINTR) throw SystemError("poll");
    if (n <= 0) continue;
    char buf[512];
    ssize_t got = ::read(ready, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw SystemError("reading the readiness pipe");
    line.append(buf, static_cast<size_t>(got));
    size_t nl = line.find('\n');
    if (got > 0 && nl == std::string::npos) continue;
    Outcome out = Judge(line.substr(0, nl), got == 0);
    if (out.ready == "error") Reap(pid, pidfd, deadline, out);
    return out;
  }
}

void Report(pid_t pid, const Outcome& out, double t_rel, const std::string& output) {
  std::string line = "{\"event\":\"child_ready\",\"pid\":";
  AppendInt(line, pid);
  line.append(",\"ready\":");
  AppendJsonString(line, out.ready);
  char t[32];
  std::snprintf(t, sizeof t, ",\"t_rel\":%.6f", t_rel);
  line.append(t);
  line.append(",\"output\":");
  AppendJsonString(line, output);
  if (out.ready == "error") {
    line.append(",\"reason\":");
    AppendJsonString(line, out.reason);
    if (out.exit_code) line.append(",\"exit_code\":" + std::to_string(*out.exit_code));
    if (out.signal) line.append(",\"signal\":" + std::to_string(*out.signal));
  }
  line.append("}\n");
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
}

}  // namespace

std::string EncodeChildError(const std::string& message) {
  std::string line = kErrorPrefix;
  for (char c : message) line.push_back(c == '\n' ? ' ' : c);
  line.push_back('\n');
  return line;
}

int LaunchBackground(const LaunchOptions& options) {
  UniqueFd null = OpenAt(AT_FDCWD, "/dev/null", O_RDWR);
  UniqueFd log;
  if (!options.log_path.empty()) {
    try {
      log = OpenAt(AT_FDCWD, options.log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    } catch (const std::system_error& e) {
      throw UsageError("--log " + options.log_path + ": " + e.code().message());
    }
  }
  std::vector<std::string> args = {"perfmonger"};
  args.insert(args.end(), options.child_args.begin(), options.child_args.end());
  args.push_back("--ready-fd=" + std::to_string(kChildReadyFd));
  std::vector<char*> argv = Argv(args);

  Pipe pipe = MakePipe();
  int64_t t0 = NowMonoNs();
  pid_t pid = fork();
  if (pid < 0) throw SystemError("fork");
  if (pid == 0)
    ExecChild(argv.data(), pipe.write_end.Get(), null.Get(), log ? log.Get() : null.Get());
  pipe.write_end.Reset();
  UniqueFd pidfd = UniqueFd::Adopt(static_cast<int>(syscall(SYS_pidfd_open, pid, 0)));
  if (!pidfd) throw SystemError("pidfd_open");

  Outcome out = Wait(pid, pipe.read_end.Get(), pidfd.Get(), t0 + options.ready_timeout_ns);
  Report(pid, out, static_cast<double>(NowMonoNs() - t0) / 1e9, options.output);
  if (out.ready == "error")
    std::fprintf(stderr, "perfmonger record: error: %s\n", out.reason.c_str());
  return out.ready == "ready" ? 0 : out.ready == "error" ? 1 : 2;
}

}  // namespace pm
