#include "tools/plot/plot_gnuplot.hh"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

#include "common/child_spawn.hh"
#include "common/error.hh"

namespace pm {
namespace {

using Clock = std::chrono::steady_clock;
constexpr size_t kOutputCap = 64 * 1024;  // gnuplot's complaints, not a flood

// Reads the child's output to EOF and waits for it to exit, both by the
// deadline. Returns the wait status, or nullopt at the deadline or when
// `stop_fd` is readable.
std::optional<int> Collect(pid_t pid, int pidfd, int out_fd, int stop_fd,
                           Clock::time_point deadline, std::string& output) {
  bool eof = false, exited = false;
  while (!eof || !exited) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return std::nullopt;
    struct pollfd fds[3] = {{eof ? -1 : out_fd, POLLIN, 0},
                            {exited ? -1 : pidfd, POLLIN, 0},
                            {stop_fd, POLLIN, 0}};
    int n = poll(fds, 3, static_cast<int>(left.count()));
    if (n > 0 && fds[2].revents) return std::nullopt;
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

void RunGnuplot(const std::string& gnuplot, const std::string& dir, const std::string& script,
                std::chrono::milliseconds timeout, const StopSignals& stop) {
  PipedChild c = ChildSpawn1Pipe({.argv = {gnuplot, script}, .cwd = dir},
                                 PipeTo::kStdoutAndStderr);
  pid_t pid = c.child.pid;
  std::string output;
  std::optional<int> status = Collect(pid, c.child.pidfd.Get(), c.fd.Get(), stop.fd(),
                                      Clock::now() + timeout, output);
  if (!status) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    stop.ThrowIfStopped();
    throw ChartError(gnuplot + " " + script + ": still running after " +
                     std::to_string(timeout.count() / 1000) + " s: killed");
  }
  if (WIFEXITED(*status) && WEXITSTATUS(*status) == 0) return;
  stop.ThrowIfStopped();  // a terminal's ^C reaches gnuplot too
  std::string how = WIFEXITED(*status)
                        ? "exit status " + std::to_string(WEXITSTATUS(*status))
                        : "killed by signal " + std::to_string(WTERMSIG(*status));
  throw ChartError(gnuplot + " " + script + " failed (" + how + "): " + Tail(output));
}

}  // namespace pm
