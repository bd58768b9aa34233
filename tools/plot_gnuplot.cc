#include "tools/plot_gnuplot.hh"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "common/error.hh"
#include "common/io.hh"
#include "common/unique_fd.hh"

namespace pm {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kOutputCap = 64 * 1024;  // gnuplot's complaints, not a flood

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

// In the child, between fork and exec: async-signal-safe calls only.
[[noreturn]] void ExecChild(const char* program, const char* script, const char* dir,
                            int out_fd) {
  signal(SIGPIPE, SIG_DFL);  // perfmonger ignores it; gnuplot expects the default
  int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd < 0 || dup2(null_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(out_fd, 2) < 0 ||
      chdir(dir) < 0)
    _exit(126);
  char* const argv[] = {const_cast<char*>(program), const_cast<char*>(script), nullptr};
  execv(program, argv);
  _exit(127);
}

// Reads the child's output to EOF and waits for it to exit, both by the
// deadline. Returns the wait status, or nullopt at the deadline.
std::optional<int> Collect(pid_t pid, int pidfd, int out_fd, Clock::time_point deadline,
                           std::string& output) {
  bool eof = false, exited = false;
  while (!eof || !exited) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return std::nullopt;
    struct pollfd fds[2] = {{eof ? -1 : out_fd, POLLIN, 0}, {exited ? -1 : pidfd, POLLIN, 0}};
    int n = poll(fds, 2, static_cast<int>(left.count()));
    if (n < 0 && errno != EINTR) throw SystemError("poll on gnuplot");
    if (n <= 0) continue;
    if (fds[0].revents) {
      char buf[4096];
      ssize_t got = read(out_fd, buf, sizeof buf);
      if (got > 0 && output.size() < kOutputCap) output.append(buf, static_cast<size_t>(got));
      if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN)) eof = true;
    }
    if (fds[1].revents) exited = true;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw SystemError("waitpid on gnuplot");
  return status;
}

// The end of gnuplot's output on one line, runs of white space (its
// caret-under-the-command layout) squeezed to one.
std::string Tail(const std::string& output) {
  std::string text;
  for (char c : output) {
    bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (space && (text.empty() || text.back() == ' ')) continue;
    text.push_back(space ? ' ' : c);
  }
  while (!text.empty() && text.back() == ' ') text.pop_back();
  if (text.size() > 300) text = "..." + text.substr(text.size() - 300);
  return text.empty() ? "no message" : text;
}

}  // namespace

std::optional<std::string> FindExecutable(const std::string& program) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos)
    return IsExecutableFile(program) ? std::optional(program) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t begin = 0;
  for (;;) {
    size_t end = dirs.find(':', begin);
    std::string dir = dirs.substr(begin, end == std::string::npos ? end : end - begin);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
    if (IsExecutableFile(candidate)) return candidate;
    if (end == std::string::npos) return std::nullopt;
    begin = end + 1;
  }
}

void RunGnuplot(const std::string& gnuplot, const std::string& dir,
                const std::string& script, std::chrono::milliseconds timeout) {
  Pipe out = MakePipe();
  pid_t pid = fork();
  if (pid < 0) throw SystemError("fork for gnuplot");
  if (pid == 0) ExecChild(gnuplot.c_str(), script.c_str(), dir.c_str(), out.write_end.Get());
  out.write_end.Reset();
  UniqueFd pidfd = UniqueFd::Adopt(static_cast<int>(syscall(SYS_pidfd_open, pid, 0)));
  if (!pidfd.IsValid()) {
    int err = errno;
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    throw SystemError("pidfd_open for gnuplot", err);
  }
  std::string output;
  std::optional<int> status =
      Collect(pid, pidfd.Get(), out.read_end.Get(), Clock::now() + timeout, output);
  if (!status) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    throw ChartError(gnuplot + " " + script + ": still running after " +
                     std::to_string(timeout.count() / 1000) + " s: killed");
  }
  if (WIFEXITED(*status) && WEXITSTATUS(*status) == 0) return;
  std::string how = WIFEXITED(*status)
                        ? "exit status " + std::to_string(WEXITSTATUS(*status))
                        : "killed by signal " + std::to_string(WTERMSIG(*status));
  throw ChartError(gnuplot + " " + script + " failed (" + how + "): " + Tail(output));
}

}  // namespace pm
