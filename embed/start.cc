// perfmonger_start: the caller's options read as far as it knows them,
// checked, turned into `perfmonger record` arguments, and the recorder
// started through common/'s Spawn (no fork of the caller) with its fds
// wired whatever numbers pipe() returns; then its ready line awaited.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

#include "common/deadline.hh"
#include "common/io.hh"
#include "common/program_path.hh"
#include "common/spawn.hh"
#include "embed/collector_names.hh"
#include "embed/handle.hh"

namespace pm::embed {
namespace {

constexpr int kDefaultTimeoutMs = 10000;

// Child fd numbers: the recorder's options name these.
enum ChildFd { kStdin = 0, kStdout = 1, kStderr = 2, kReady = 3, kStop = 4, kCmd = 5, kAck = 6 };

std::string PercentEncode(const char* text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char* p = reinterpret_cast<const unsigned char*>(text); *p; ++p) {
    if (isalnum(*p) || strchr("-._~", *p)) {
      out += static_cast<char>(*p);
    } else {
      out += '%';
      out += kHex[*p >> 4];
      out += kHex[*p & 15];
    }
  }
  return out;
}

// The first layout with a size (1.0's), through record_caller: every
// later one is it and fields after it.
constexpr size_t kFirstLayoutSize = offsetof(perfmonger_options, record);

// The caller's struct as far as it reaches, the rest zero: a caller built
// against an earlier header (a smaller size) gets the defaults of the
// fields it does not know; one built against a newer header may pass
// more, as long as we would ignore nothing.
int ReadOptions(perfmonger_recording& rec, const perfmonger_options* given, perfmonger_options* o) {
  if (!given) return rec.Fail(EINVAL, "no options");
  if (given->size < kFirstLayoutSize)
    return rec.Fail(EINVAL, "options.size is %zu: initialise the options with "
                    "PERFMONGER_OPTIONS_INIT or perfmonger_options_init()", given->size);
  const unsigned char* bytes = reinterpret_cast<const unsigned char*>(given);
  for (size_t i = sizeof *o; i < given->size; ++i)
    if (bytes[i]) return rec.Fail(E2BIG, "options set fields this perfmonger-embed does not know");
  std::memset(o, 0, sizeof *o);
  std::memcpy(o, given, std::min(given->size, sizeof *o));
  o->size = sizeof *o;
  return 0;
}

int CheckOptions(perfmonger_recording& rec, const perfmonger_options& o) {
  if (!o.output || !*o.output) return rec.Fail(EINVAL, "options.output names no file");
  if (std::strcmp(o.output, "-") == 0)
    return rec.Fail(EINVAL, "options.output \"-\" is the recorder's standard output, which is "
                    "/dev/null here: name a file");
  size_t meta_count = 0;
  while (o.meta && o.meta[meta_count]) ++meta_count;
  if (meta_count % 2) return rec.Fail(EINVAL, "options.meta holds a key without a value");
  return CheckCollectorNames(rec, o);
}

void AddEach(std::vector<std::string>& args, const char* flag, const char* const* values) {
  for (; values && *values; ++values) args.insert(args.end(), {flag, *values});
}

std::vector<std::string> RecordArgs(const perfmonger_options& o) {
  std::vector<std::string> args = {"perfmonger", "record", "-l", o.output};
  if (o.interval) args.insert(args.end(), {"-i", o.interval});
  for (const char* const* kv = o.meta; kv && kv[0] && kv[1]; kv += 2)
    args.insert(args.end(), {"--meta", PercentEncode(kv[0]) + "=" + PercentEncode(kv[1])});
  struct { int on; const char* flag; } flags[] = {
      {o.no_cpu, "--no-cpu"}, {o.no_disk, "--no-disk"}, {o.no_net, "--no-net"},
      {o.no_mem, "--no-mem"}, {o.record_intr, "--record-intr"},
      {o.record_pressure, "--record-pressure"}, {o.start_paused, "--start-paused"}};
  for (const auto& f : flags)
    if (f.on) args.push_back(f.flag);
  AddCollectorFlags(args, o);
  AddEach(args, "-d", o.disks);
  AddEach(args, "--cgroup", o.cgroups);
  for (const pid_t* pid = o.pids; pid && *pid; ++pid)
    args.insert(args.end(), {"--pid", std::to_string(*pid)});
  if (o.record_caller) args.insert(args.end(), {"--pid", std::to_string(getpid())});
  args.insert(args.end(), {"--ready-fd", "3", "--stop-fd", "4", "--cmd-fd", "5", "--ack-fd", "6"});
  return args;
}

// The recorder's ends (child) and ours (parent), all CLOEXEC: ready,
// stop, command (a socket: MSG_NOSIGNAL), ack, stderr, and /dev/null.
struct ChildPipes {
  Pipe ready, stop, ack, err;
  UniqueFd cmd_parent, cmd_child, null;

  int Open() {
    try {
      ready = MakePipe();
      stop = MakePipe();
      ack = MakePipe();
      err = MakePipe();
      null = OpenAt(AT_FDCWD, "/dev/null", O_RDWR);
    } catch (const std::system_error& e) {
      return e.code().value();
    }
    int p[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) != 0) return errno;
    cmd_parent = UniqueFd::Adopt(p[0]);
    cmd_child = UniqueFd::Adopt(p[1]);
    // Ours only: stderr is drained without blocking.
    return fcntl(err.read_end.Get(), F_SETFL, O_NONBLOCK) == 0 ? 0 : errno;
  }
};

int Launch(perfmonger_recording& rec, const std::string& exe, const perfmonger_options& o,
           ChildPipes& pipes) {
  std::vector<std::string> args = RecordArgs(o);
  std::vector<const char*> argv = NullTerminated(args);
  const SpawnFd map[] = {{kStdin, pipes.null.Get()},          {kStdout, pipes.null.Get()},
                         {kStderr, pipes.err.write_end.Get()}, {kReady, pipes.ready.write_end.Get()},
                         {kStop, pipes.stop.read_end.Get()},   {kCmd, pipes.cmd_child.Get()},
                         {kAck, pipes.ack.write_end.Get()}};
  SpawnSpec spec{};
  spec.path = exe.c_str();
  spec.argv = argv.data();
  spec.fds = map;
  spec.fd_count = sizeof map / sizeof map[0];
  SpawnResult result;
  if (int err = SpawnProcess(&spec, &result))
    return rec.Fail(err, "cannot start %s: %s: %s", exe.c_str(), result.failed_step, strerror(err));
  rec.pid = result.pid;
  rec.pidfd = UniqueFd::Adopt(result.pidfd);
  pipes.ready.write_end.Reset();  // the child's ends: only the recorder holds them
  pipes.stop.read_end.Reset();
  pipes.ack.write_end.Reset();
  pipes.err.write_end.Reset();
  pipes.cmd_child.Reset();
  rec.err_r = std::move(pipes.err.read_end);
  return 0;
}

void Kill(perfmonger_recording& rec) {
  syscall(SYS_pidfd_send_signal, rec.pidfd.Get(), SIGKILL, nullptr, 0);
  WaitExit(rec, rec.Deadline());
}

std::string WithStderr(const perfmonger_recording& rec) {
  std::string line = LastStderrLine(rec);
  return line.empty() ? "" : ": " + line;
}

// Waits for the ready line, reading stderr meanwhile: 0, or the failure.
int AwaitReady(perfmonger_recording& rec, int ready_r) {
  int64_t deadline = rec.Deadline();
  std::string buf;
  for (;;) {
    size_t nl = buf.find('\n');
    if (nl != std::string::npos) {
      std::string ignored;
      if (ParseReadyLine(buf.substr(0, nl + 1), &ignored, &rec.start_time)) return 0;
      Kill(rec);
      return rec.Fail(EPROTO, "not a ready line: %.200s", buf.c_str());
    }
    struct pollfd fds[2] = {{ready_r, POLLIN, 0}, {rec.err_r.Get(), POLLIN, 0}};
    int n = PollUntil(fds, 2, deadline);
    if (fds[1].revents) DrainStderr(rec);
    if (n == 0) {
      Kill(rec);
      return rec.Fail(ETIMEDOUT, "perfmonger record sent no ready line within %d ms%s",
                      rec.timeout_ms, WithStderr(rec).c_str());
    }
    if (!fds[0].revents) continue;
    char chunk[512];
    ssize_t got = read(ready_r, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got > 0 && buf.size() < 4096) {
      buf.append(chunk, static_cast<size_t>(got));
      continue;
    }
    break;  // EOF before a line: it failed
  }
  if (!WaitExit(rec, deadline)) Kill(rec);
  std::string line = LastStderrLine(rec);
  if (!line.empty()) return rec.Fail(ECHILD, "%s", line.c_str());
  return rec.Fail(ECHILD, "perfmonger record %s before it was ready", HowItEnded(rec).c_str());
}

int FindRecorder(perfmonger_recording& rec, const char* name, std::string* exe) {
  ProgramLookup found = FindProgram(name);
  if (found.error) return rec.Fail(found.error, "%s: %s", name, found.reason.c_str());
  *exe = found.path;
  return 0;
}

}  // namespace

int TimeoutOrDefault(int timeout_ms) { return timeout_ms > 0 ? timeout_ms : kDefaultTimeoutMs; }

int Start(perfmonger_recording& rec, const perfmonger_options* given) {
  if (rec.started || rec.pid != 0) return rec.Fail(EALREADY, "this recording was started before");
  perfmonger_options o;
  if (int err = ReadOptions(rec, given, &o)) return err;
  if (int err = CheckOptions(rec, o)) return err;
  rec.timeout_ms = TimeoutOrDefault(o.timeout_ms);
  std::string exe;
  if (int err = FindRecorder(rec, o.perfmonger ? o.perfmonger : "perfmonger", &exe)) return err;
  try {
    rec.output = AbsolutePath(o.output);  // as the recorder makes it: the caller's bytes
  } catch (const std::system_error& e) {
    return rec.Fail(e.code().value(), "%s", e.what());
  }
  ChildPipes pipes;
  if (int err = pipes.Open()) return rec.Fail(err, "cannot create pipes: %s", strerror(err));
  if (int err = Launch(rec, exe, o, pipes)) return err;
  if (int err = AwaitReady(rec, pipes.ready.read_end.Get())) return err;
  rec.stop_w = std::move(pipes.stop.write_end);
  rec.cmd = std::move(pipes.cmd_parent);
  rec.ack_r = std::move(pipes.ack.read_end);
  rec.started = true;
  rec.error.clear();
  return 0;
}

}  // namespace pm::embed
