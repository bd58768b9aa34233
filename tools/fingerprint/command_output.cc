#include "tools/fingerprint/command_output.hh"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "common/child_spawn.hh"

namespace pm {
namespace {

constexpr size_t kOutputCap = 64u << 20;

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

CommandOutput RunForOutput(const std::vector<std::string>& argv,
                           std::chrono::milliseconds timeout) {
  CommandOutput result;
  PipedChild c;
  try {
    c = ChildSpawn1Pipe({.argv = argv, .env = {"LC_ALL=C"}}, PipeTo::kStdout);
  } catch (const std::system_error& e) {
    result.reason = e.what();
    return result;
  }
  bool finished = ReadUntil(c.fd.Get(), result.out, std::chrono::steady_clock::now() + timeout);
  if (!finished) kill(c.child.pid, SIGKILL);
  int status = 0;
  ReapChild(c.child.pid, &status, nullptr);
  result.ok = finished && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  result.reason = finished ? StatusReason(status) : "timed out";
  return result;
}

}  // namespace pm
