#include "tools/session_cli.hh"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/clock.hh"
#include "daemon/session_files.hh"
#include "proto/codec.hh"
#include "proto/json.hh"
#include "proto/line_reader.hh"
#include "proto/pgr_format.hh"

namespace pm {
namespace {

constexpr char kNoSession[] = "[ERROR] No perfmonger record session is running.\n";

struct Report {
  SessionState state;
  std::string executable;
  std::vector<std::string> arguments;
  double running_sec = 0;
  uint64_t samples = 0;
};

std::string ReadSmallFile(const std::string& path) {
  try {
    UniqueFd fd = OpenAt(AT_FDCWD, path, O_RDONLY);
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd.Get(), buf, sizeof buf)) > 0) text.append(buf, static_cast<size_t>(n));
    return text;
  } catch (const std::system_error&) {
    return {};
  }
}

// Sample lines flushed so far: every line after the header that is not an
// event. The recording is read as any reader would read a live file.
uint64_t CountSamples(const std::string& path) {
  try {
    UniqueFd fd = OpenAt(AT_FDCWD, path, O_RDONLY);
    FdInputStream file(fd.Get());
    std::unique_ptr<DecompressingInput> in = MakeDecompressor(file);
    LineReader lines(*in);
    uint64_t samples = 0;
    while (std::optional<std::string_view> line = lines.Next())
      if (line->starts_with("{\"t\":")) ++samples;
    return samples;
  } catch (const std::exception&) {
    return 0;  // unreadable so far: report none rather than fail --status
  }
}

Report Describe(const SessionState& state) {
  Report r{state, {}, {}, 0, 0};
  std::string proc = "/proc/" + std::to_string(state.pid);
  char exe[4096];
  ssize_t n = readlink((proc + "/exe").c_str(), exe, sizeof exe);
  if (n > 0) r.executable.assign(exe, static_cast<size_t>(n));
  std::string cmdline = ReadSmallFile(proc + "/cmdline");
  for (size_t at = 0; at < cmdline.size();) {
    size_t end = cmdline.find('\0', at);
    if (end == std::string::npos) end = cmdline.size();
    r.arguments.push_back(cmdline.substr(at, end - at));
    at = end + 1;
  }
  if (!r.arguments.empty()) r.arguments.erase(r.arguments.begin());  // argv[0]
  r.running_sec = static_cast<double>(NowRealtimeNs() - state.start_ns) / 1e9;
  r.samples = CountSamples(state.output);
  return r;
}

void PrintText(const Report& r) {
  std::string args;
  for (const std::string& a : r.arguments) args += (args.empty() ? "" : " ") + a;
  std::printf("==== perfmonger record is running (PID: %d) ====\n", static_cast<int>(r.state.pid));
  std::printf("executable: %s\n", r.executable.c_str());
  std::printf("arguments: %s\n", args.c_str());
  std::printf("start time: %s\n", FormatRfc3339(r.state.start_ns).c_str());
  std::printf("running: %.3f sec\n", r.running_sec);
  std::printf("output: %s\n", r.state.output.c_str());
  std::printf("samples: %llu\n", static_cast<unsigned long long>(r.samples));
}

void PrintJson(const Report& r) {
  std::string out;
  JsonObjectWriter o(out);
  o.Int("pid", r.state.pid).Str("executable", r.executable);
  std::string& arguments = o.Key("arguments");
  arguments.push_back('[');
  for (size_t i = 0; i < r.arguments.size(); ++i) {
    if (i) arguments.push_back(',');
    AppendJsonString(arguments, r.arguments[i]);
  }
  arguments.push_back(']');
  char running[32];
  std::snprintf(running, sizeof running, "%.3f", r.running_sec);
  o.Str("start_time", FormatRfc3339(r.state.start_ns))
      .Raw("running_sec", running)
      .Str("output", r.state.output)
      .Uint("samples", r.samples)
      .Close();
  out.push_back('\n');
  std::fputs(out.c_str(), stdout);
}

// A pidfd that provably refers to the session's process: opened first, then
// the start time checked, so a recycled pid is never signalled.
UniqueFd SessionPidfd(const SessionState& state) {
  UniqueFd pidfd = UniqueFd::Adopt(static_cast<int>(syscall(SYS_pidfd_open, state.pid, 0)));
  if (!pidfd || ProcessStartTime(state.pid) != state.process_start) return {};
  return pidfd;
}

bool WaitForExit(int pidfd, int64_t deadline) {
  for (;;) {
    int64_t left_ms = (deadline - NowMonoNs()) / 1'000'000;
    if (left_ms < 0) return false;
    struct pollfd p = {pidfd, POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(left_ms));
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) return false;
  }
}

}  // namespace

int SessionStatus(bool json) {
  std::optional<SessionState> state = FindLiveSession(DefaultSessionPaths());
  if (!state) {
    std::fputs(kNoSession, stderr);
    return 1;
  }
  Report report = Describe(*state);
  if (json) PrintJson(report);
  else PrintText(report);
  return 0;
}

int SessionKill(int64_t timeout_ns) {
  SessionPaths paths = DefaultSessionPaths();
  std::optional<SessionState> state = FindLiveSession(paths);
  UniqueFd pidfd = state ? SessionPidfd(*state) : UniqueFd();
  if (!pidfd) {
    std::fputs(kNoSession, stderr);
    return 1;
  }
  int64_t deadline = NowMonoNs() + timeout_ns;
  bool stopped = syscall(SYS_pidfd_send_signal, pidfd.Get(), SIGINT, nullptr, 0) == 0 &&
                 WaitForExit(pidfd.Get(), deadline) && SessionLockReleased(paths);
  if (!stopped) {
    std::fprintf(stderr, "[ERROR] Cannot stop perfmonger record session correctly. PID=%d\n",
                 static_cast<int>(state->pid));
    return 1;
  }
  return 0;
}

}  // namespace pm
