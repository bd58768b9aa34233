#include "tools/command_output.hh"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string_view>
#include <system_error>

#include "common/io.hh"
#include "common/unique_fd.hh"

namespace pm {
namespace {

constexpr size_t kOutputCap = 64u << 20;

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

// In the child only: stdin and stderr to /dev/null, stdout to `out`.
[[noreturn]] void ExecChild(const std::vector<std::string>& argv, int out) {
  int devnull = open("/dev/null", O_RDWR);
  if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out, 1) < 0 ||
      dup2(devnull, 2) < 0)
    _exit(126);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  setenv("LC_ALL", "C", 1);
  execv(args[0], args.data());
  _exit(127);
}

// Reads `fd` to EOF or until the deadline; false on timeout.
bool ReadUntil(int fd, std::string& out,
               std::chrono::steady_clock::time_point deadline) {
  char buf[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(left.count()));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) return false;  // the deadline passed
    if (r < 0) return true;    // poll itself failed: keep what we have
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    if (out.size() < kOutputCap)
      out.append(buf, std::min<size_t>(n, kOutputCap - out.size()));
  }
}

std::string StatusReason(int status) {
  if (WIFEXITED(status)) return "exit status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "stopped";
}

}  // namespace

std::optional<std::string> FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos)
    return IsExecutableFile(name) ? std::optional(name) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/bin:/bin";
  while (!dirs.empty()) {
    size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    dirs = colon == std::string_view::npos ? "" : dirs.substr(colon + 1);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (IsExecutableFile(candidate)) return candidate;
  }
  return std::nullopt;
}

CommandOutput RunForOutput(const std::vector<std::string>& argv,
                           std::chrono::milliseconds timeout) {
  Pipe pipe = MakePipe();
  pid_t pid = fork();
  if (pid < 0) throw std::system_error(errno, std::generic_category(), "fork");
  if (pid == 0) ExecChild(argv, pipe.write_end.Get());
  pipe.write_end.Reset();

  CommandOutput result;
  bool finished = ReadUntil(pipe.read_end.Get(), result.out,
                            std::chrono::steady_clock::now() + timeout);
  if (!finished) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.ok = finished && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  result.reason = finished ? StatusReason(status) : "timed out";
  return result;
}

}  // namespace pm
