#include "tools/record/session_cli.hh"

#include <fcntl.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "common/clock.hh"
#include "common/deadline.hh"
#include "common/error.hh"
#include "common/io.hh"
#include "daemon/process_info.hh"
#include "daemon/session_files.hh"
#include "playback/reading/recording_reader.hh"
#include "proto/json.hh"
#include "proto/pgr_format.hh"

namespace pm {
namespace {

constexpr char kNoSession[] = "[ERROR] No perfmonger record session is running.\n";
constexpr int64_t kFirstReapCheckNs = 1'000'000;
constexpr int64_t kLastReapCheckNs = 50'000'000;

struct Report {
  SessionState state;
  std::string executable;
  double running_sec = 0;
  uint64_t samples = 0;
};

// Samples flushed so far, read as `play` reads a live file: the reader
// stops quietly at a partial last line. Only in a regular file: reading a
// FIFO or a device would wait, and take bytes from its reader (0 then).
uint64_t CountSamples(const std::string& path) {
  uint64_t samples = 0;
  try {
    UniqueFd fd = OpenAt(AT_FDCWD, path, O_RDONLY | O_NONBLOCK);
    struct stat st;
    if (fstat(fd.Get(), &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    FdInputStream file(fd.Get());
    RecordingReader reader(file);
    RawSample sample;
    RecordingEvent event;
    while (reader.Next(sample, event) != RecordingReader::Item::kEnd)
      samples = reader.samples_read();
  } catch (const std::exception&) {
    // Unreadable so far (no header yet, or damage): what was counted stands
    // rather than failing --status.
  }
  return samples;
}

Report Describe(const SessionState& state) {
  Report r{state, ProcessExecutable(state.pid), 0, 0};
  if (r.state.args.empty()) {  // a session started by an older launcher
    r.state.args = ProcessArgs(state.pid);
    if (!r.state.args.empty()) r.state.args.erase(r.state.args.begin());  // argv[0]
  }
  r.running_sec = static_cast<double>(NowRealtimeNs() - state.start_ns) / 1e9;
  if (!state.perfmonger_1_0) r.samples = CountSamples(state.output);
  return r;
}

void PrintText(const Report& r) {
  std::string args;
  for (const std::string& a : r.state.args) args += (args.empty() ? "" : " ") + a;
  std::printf("==== perfmonger record is running (PID: %d) ====\n", static_cast<int>(r.state.pid));
  std::printf("executable: %s\n", r.executable.c_str());
  std::printf("arguments: %s\n", args.c_str());
  std::printf("start time: %s\n", FormatRfc3339(r.state.start_ns).c_str());
  std::printf("running: %.3f sec\n", r.running_sec);
  if (r.state.perfmonger_1_0) {
    std::printf("session: PerfMonger 1.0 (known by its pidfile only)\n");
    return;
  }
  std::printf("output: %s\n", r.state.output.c_str());
  std::printf("samples: %llu\n", static_cast<unsigned long long>(r.samples));
}

void PrintJson(const Report& r) {
  std::string out = "{\"pid\":";
  AppendInt(out, r.state.pid);
  out.append(",\"executable\":");
  AppendJsonString(out, r.executable);
  out.append(",\"arguments\":[");
  for (size_t i = 0; i < r.state.args.size(); ++i) {
    if (i) out.push_back(',');
    AppendJsonString(out, r.state.args[i]);
  }
  out.append("],\"start_time\":");
  AppendJsonString(out, FormatRfc3339(r.state.start_ns));
  char running[48];
  std::snprintf(running, sizeof running, ",\"running_sec\":%.3f", r.running_sec);
  out.append(running);
  if (r.state.perfmonger_1_0) {
    out.append(",\"perfmonger_1_0\":true}\n");
  } else {
    out.append(",\"output\":");
    AppendJsonString(out, r.state.output);
    out.append(",\"samples\":");
    AppendUint(out, r.samples);
    out.append("}\n");
  }
  std::fputs(out.c_str(), stdout);
}

// The session running, after removing (with a note) a stale pidfile.
std::optional<SessionState> LookUp(const SessionPaths& paths) {
  SessionLookup found = FindSession(paths, true);
  if (!found.removed_stale.empty())
    std::fprintf(stderr, "perfmonger record: removed a stale %s (%s)\n",
                 paths.pidfile.c_str(), found.removed_stale.c_str());
  return found.live;
}

// A pidfd that provably refers to the session's process: opened first, then
// the start time checked, so a recycled pid is never signalled.
UniqueFd SessionPidfd(const SessionState& state) {
  UniqueFd pidfd = UniqueFd::Adopt(static_cast<int>(syscall(SYS_pidfd_open, state.pid, 0)));
  if (!pidfd || ProcessStartTime(state.pid) != state.process_start) return {};
  return pidfd;
}

// After the exit, until the parent has reaped the process (its /proc entry
// gone, or the pid already someone else's). No fd reports a reap: /proc is
// checked with a backoff, 1 ms doubling up to 50 ms, until the deadline.
bool WaitForReap(const SessionState& state, int64_t deadline) {
  for (int64_t step = kFirstReapCheckNs;; step = std::min(step * 2, kLastReapCheckNs)) {
    if (ProcessStartTime(state.pid) != state.process_start) return true;
    if (NowMonoNs() >= deadline) return false;
    PauseUntil(deadline, step);
  }
}

}  // namespace

int SessionStatus(bool json) {
  std::optional<SessionState> state = LookUp(DefaultSessionPaths());
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
  std::optional<SessionState> state = LookUp(paths);
  UniqueFd pidfd = state ? SessionPidfd(*state) : UniqueFd();
  if (!pidfd) {
    std::fputs(kNoSession, stderr);
    return 1;
  }
  int64_t deadline = NowMonoNs() + timeout_ns;
  bool stopped = syscall(SYS_pidfd_send_signal, pidfd.Get(), SIGINT, nullptr, 0) == 0 &&
                 WaitForFd(pidfd.Get(), POLLIN, deadline) &&
                 (state->perfmonger_1_0 || SessionLockReleased(paths));
  if (!stopped) {
    std::fprintf(stderr, "[ERROR] Cannot stop perfmonger record session correctly. PID=%d\n",
                 static_cast<int>(state->pid));
    return 1;
  }
  if (!WaitForReap(*state, deadline)) {
    std::optional<pid_t> parent = ParentPid(state->pid);
    std::fprintf(stderr,
                 "perfmonger record: the recording is closed; PID %d has exited and "
                 "awaits reaping by its parent (PID %d)\n",
                 static_cast<int>(state->pid), static_cast<int>(parent.value_or(0)));
  }
  return 0;
}

}  // namespace pm
