// perfmonger-embed: the C API of include/perfmonger/embed.h over the
// project's one Spawn core (common/spawn.hh) and deadline wait
// (common/deadline.hh). Nothing here throws; every failure becomes a
// negative errno and a one-line message kept in the handle.
#include "perfmonger/embed.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "common/clock.hh"
#include "common/deadline.hh"
#include "common/spawn.hh"
#include "embed/ready_line.hh"

namespace {

constexpr int kDefaultTimeoutMs = 10000;
constexpr size_t kLineCap = 64 * 1024;

// Child fd numbers: the recorder's options name these.
enum ChildFd { kStdin = 0, kStdout = 1, kStderr = 2, kReady = 3, kStop = 4, kCmd = 5, kAck = 6 };

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

struct perfmonger_recording {
  pid_t pid = 0;
  int pidfd = -1;
  int stop_w = -1;  // closing it stops the recording
  int cmd = -1;     // our end of the command socket (MSG_NOSIGNAL: no SIGPIPE)
  int ack_r = -1;
  int err_r = -1;   // the recorder's stderr, for its messages
  int timeout_ms = kDefaultTimeoutMs;
  int exit_status = -1;
  bool started = false;
  std::string error, output, start_time, last_stderr;

  ~perfmonger_recording() {
    for (int* fd : {&pidfd, &stop_w, &cmd, &ack_r, &err_r}) CloseFd(*fd);
  }
  int Fail(int err, const char* format, ...) __attribute__((format(printf, 3, 4)));
  int64_t Deadline() const { return pm::NowMonoNs() + int64_t{timeout_ms} * 1'000'000; }
};

int perfmonger_recording::Fail(int err, const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  error = buf;
  return -err;
}

namespace {

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

bool IsExecutable(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(path.c_str(), X_OK) == 0;
}

// `name` itself when it holds a '/', else the first match on $PATH.
std::string FindExecutable(const char* name) {
  if (strchr(name, '/')) return IsExecutable(name) ? name : "";
  const char* path = getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (IsExecutable(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

std::vector<std::string> RecordArgs(const perfmonger_options& o) {
  std::vector<std::string> args = {"perfmonger", "record", "-l", o.output};
  if (o.interval) args.insert(args.end(), {"-i", o.interval});
  for (const char* const* kv = o.meta; kv && kv[0] && kv[1]; kv += 2)
    args.insert(args.end(), {"--meta", PercentEncode(kv[0]) + "=" + PercentEncode(kv[1])});
  struct { int on; const char* flag; } flags[] = {
      {o.no_cpu, "--no-cpu"}, {o.no_disk, "--no-disk"}, {o.no_net, "--no-net"},
      {o.no_mem, "--no-mem"}, {o.record_intr, "--record-intr"},
      {o.start_paused, "--start-paused"}};
  for (const auto& f : flags)
    if (f.on) args.push_back(f.flag);
  args.insert(args.end(), {"--ready-fd", "3", "--stop-fd", "4", "--cmd-fd", "5", "--ack-fd", "6"});
  return args;
}

// Reads what is available on the recorder's stderr (non-blocking) and keeps
// its last non-empty line: the recorder's one-line messages.
void DrainStderr(perfmonger_recording& rec) {
  char buf[4096];
  ssize_t n;
  std::string text;
  while ((n = read(rec.err_r, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) text.append(buf, n);
  size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return;
  size_t start = text.rfind('\n', end);
  start = start == std::string::npos ? 0 : start + 1;
  rec.last_stderr = text.substr(start, end + 1 - start);
}

// Reaps the exited recorder and records how it ended.
void Reap(perfmonger_recording& rec) {
  int status = 0;
  if (rec.pid > 0 && pm::ReapChild(rec.pid, &status, nullptr))
    rec.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  rec.pid = -rec.pid;  // keeps the number for perfmonger_pid, never reaps twice
  CloseFd(rec.pidfd);
  DrainStderr(rec);
}

// One line from `fd` into `buf` (kept across calls), or "" at EOF, a gone
// recorder (pidfd readable and nothing left) or the deadline (*timed_out).
std::string ReadLine(perfmonger_recording& rec, int fd, std::string& buf, int64_t deadline,
                     bool* timed_out) {
  *timed_out = false;
  for (;;) {
    size_t nl = buf.find('\n');
    if (nl != std::string::npos) {
      std::string line = buf.substr(0, nl + 1);
      buf.erase(0, nl + 1);
      return line;
    }
    struct pollfd fds[2] = {{fd, POLLIN, 0}, {rec.pidfd, POLLIN, 0}};
    int n = pm::PollUntil(fds, rec.pidfd >= 0 ? 2 : 1, deadline);
    if (n == 0) *timed_out = true;
    if (n <= 0) return "";
    if (fds[0].revents) {
      char chunk[4096];
      ssize_t got = read(fd, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0 || buf.size() > kLineCap) return "";
      buf.append(chunk, got);
    } else {
      return "";  // the recorder exited with nothing more for us
    }
  }
}

struct ChildPipes {
  int parent[5] = {-1, -1, -1, -1, -1};  // ready_r, stop_w, cmd, ack_r, err_r
  int child[6] = {-1, -1, -1, -1, -1, -1};  // ready_w, stop_r, cmd, ack_w, err_w, null
  ~ChildPipes() {
    for (int& fd : child) CloseFd(fd);
    for (int& fd : parent) CloseFd(fd);
  }
  bool Open() {
    int p[2];
    for (int i : {0, 1, 3, 4}) {
      if (pipe2(p, O_CLOEXEC) != 0) return false;
      bool child_writes = i != 1;  // the child reads only the stop pipe
      parent[i] = child_writes ? p[0] : p[1];
      child[i] = child_writes ? p[1] : p[0];
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) != 0) return false;
    parent[2] = p[0];
    child[2] = p[1];
    child[5] = open("/dev/null", O_RDWR | O_CLOEXEC);
    return child[5] >= 0 && fcntl(parent[4], F_SETFL, O_NONBLOCK) == 0;
  }
};

int Spawn(perfmonger_recording& rec, const std::string& exe, const perfmonger_options& o,
          ChildPipes& pipes) {
  std::vector<std::string> args = RecordArgs(o);
  std::vector<const char*> argv = pm::NullTerminated(args);
  const pm::SpawnFd map[] = {{kStdin, pipes.child[5]}, {kStdout, pipes.child[5]},
                             {kStderr, pipes.child[4]}, {kReady, pipes.child[0]},
                             {kStop, pipes.child[1]},   {kCmd, pipes.child[2]},
                             {kAck, pipes.child[3]}};
  pm::SpawnSpec spec{};
  spec.path = exe.c_str();
  spec.argv = argv.data();
  spec.fds = map;
  spec.fd_count = sizeof map / sizeof map[0];
  pm::SpawnResult result;
  if (int err = pm::SpawnProcess(&spec, &result))
    return rec.Fail(err, "cannot start %s: %s: %s", exe.c_str(), result.failed_step, strerror(err));
  rec.pid = result.pid;
  rec.pidfd = result.pidfd;
  for (int& fd : pipes.child) CloseFd(fd);
  return 0;
}

// Waits for the ready line: 0, or the recorder's failure.
int AwaitReady(perfmonger_recording& rec, int ready_r) {
  std::string buf;
  bool timed_out = false;
  std::string line = ReadLine(rec, ready_r, buf, rec.Deadline(), &timed_out);
  if (!line.empty()) {
    if (pm::embed::ParseReadyLine(line, &rec.output, &rec.start_time)) return 0;
    kill(rec.pid, SIGKILL);
    Reap(rec);
    return rec.Fail(EPROTO, "not a ready line: %.200s", line.c_str());
  }
  if (timed_out) {
    kill(rec.pid, SIGKILL);
    Reap(rec);
    return rec.Fail(ETIMEDOUT, "perfmonger record sent no ready line within %d ms", rec.timeout_ms);
  }
  struct pollfd exited = {rec.pidfd, POLLIN, 0};
  pm::PollUntil(&exited, 1, rec.Deadline());
  Reap(rec);
  if (rec.last_stderr.empty())
    return rec.Fail(ECHILD, "perfmonger record exited with status %d before it was ready",
                    rec.exit_status);
  return rec.Fail(ECHILD, "%s", rec.last_stderr.c_str());
}

// Sends one command line and waits for its reply.
int Command(perfmonger_recording* rec, const std::string& line) {
  if (!rec || !rec->started) return rec ? rec->Fail(ESRCH, "not started") : -EINVAL;
  if (rec->pid <= 0) return rec->Fail(ESRCH, "the recorder has exited (status %d)", rec->exit_status);
  for (size_t sent = 0; sent < line.size();) {
    ssize_t n = send(rec->cmd, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return rec->Fail(ESRCH, "the recorder no longer reads commands: %s", strerror(errno));
    sent += n;
  }
  std::string buf;
  bool timed_out = false;
  std::string reply = ReadLine(*rec, rec->ack_r, buf, rec->Deadline(), &timed_out);
  if (timed_out) return rec->Fail(ETIMEDOUT, "no reply to '%.*s' within %d ms",
                                  static_cast<int>(line.size() - 1), line.c_str(), rec->timeout_ms);
  if (reply.empty()) {
    if (!perfmonger_running(rec)) return rec->Fail(ESRCH, "the recorder has exited (status %d)", rec->exit_status);
    return rec->Fail(ESRCH, "the recorder closed its replies");
  }
  if (reply.find("\"ok\":true") != std::string::npos) return 0;
  return rec->Fail(EPROTO, "perfmonger refused '%.*s': %s", static_cast<int>(line.size() - 1),
                   line.c_str(), pm::embed::ReplyError(reply).c_str());
}

}  // namespace

extern "C" {

perfmonger_recording* perfmonger_new(void) { return new (std::nothrow) perfmonger_recording; }

int perfmonger_start(perfmonger_recording* rec, const struct perfmonger_options* o) {
  if (!rec) return -EINVAL;
  if (rec->started || rec->pid != 0) return rec->Fail(EALREADY, "this recording was started before");
  if (!o || !o->output || !*o->output) return rec->Fail(EINVAL, "options.output names no file");
  size_t meta_count = 0;
  while (o->meta && o->meta[meta_count]) ++meta_count;
  if (meta_count % 2) return rec->Fail(EINVAL, "options.meta holds a key without a value");
  rec->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : kDefaultTimeoutMs;
  std::string exe = FindExecutable(o->perfmonger ? o->perfmonger : "perfmonger");
  if (exe.empty())
    return rec->Fail(ENOENT, "%s: not found%s", o->perfmonger ? o->perfmonger : "perfmonger",
                     o->perfmonger && strchr(o->perfmonger, '/') ? "" : " on PATH");
  ChildPipes pipes;
  if (!pipes.Open()) return rec->Fail(errno, "cannot create pipes: %s", strerror(errno));
  if (int err = Spawn(*rec, exe, *o, pipes)) return err;
  rec->err_r = std::exchange(pipes.parent[4], -1);
  if (int err = AwaitReady(*rec, pipes.parent[0])) return err;
  rec->stop_w = std::exchange(pipes.parent[1], -1);
  rec->cmd = std::exchange(pipes.parent[2], -1);
  rec->ack_r = std::exchange(pipes.parent[3], -1);
  rec->started = true;
  rec->error.clear();
  return 0;
}

int perfmonger_pause(perfmonger_recording* rec) { return Command(rec, "pause\n"); }
int perfmonger_resume(perfmonger_recording* rec) { return Command(rec, "resume\n"); }
int perfmonger_sample(perfmonger_recording* rec) { return Command(rec, "sample\n"); }

int perfmonger_mark(perfmonger_recording* rec, const char* label) {
  if (!rec) return -EINVAL;
  size_t len = label ? strlen(label) : 0;
  bool printable = len >= 1 && len <= 128;
  for (size_t i = 0; printable && i < len; ++i)
    printable = label[i] > ' ' - 1 && label[i] < 127;
  if (!printable) return rec->Fail(EINVAL, "a mark label is 1 to 128 printable ASCII bytes");
  return Command(rec, std::string("mark ") + label + "\n");
}

int perfmonger_stop(perfmonger_recording* rec, int* exit_status, int* complete) {
  if (!rec) return -EINVAL;
  if (!rec->started) return rec->Fail(ESRCH, "not started");
  CloseFd(rec->stop_w);  // EOF on --stop-fd: the recorder closes the file
  CloseFd(rec->cmd);
  if (rec->pid > 0) Reap(*rec);
  if (exit_status) *exit_status = rec->exit_status;
  if (complete) *complete = rec->exit_status == 0;
  if (rec->exit_status == 0) return 0;
  if (rec->exit_status == 2)
    return rec->Fail(EIO, "%s", rec->last_stderr.empty() ? "collection error" : rec->last_stderr.c_str());
  return rec->Fail(ECHILD, "perfmonger record ended with status %d%s%s", rec->exit_status,
                   rec->last_stderr.empty() ? "" : ": ", rec->last_stderr.c_str());
}

int perfmonger_running(perfmonger_recording* rec) {
  if (!rec || rec->pid <= 0) return 0;
  struct pollfd p = {rec->pidfd, POLLIN, 0};
  if (poll(&p, 1, 0) == 1) {
    Reap(*rec);
    return 0;
  }
  return 1;
}

const char* perfmonger_error(const perfmonger_recording* rec) { return rec ? rec->error.c_str() : ""; }
pid_t perfmonger_pid(const perfmonger_recording* rec) {
  return rec && rec->started ? (rec->pid < 0 ? -rec->pid : rec->pid) : 0;
}
const char* perfmonger_output(const perfmonger_recording* rec) {
  return rec && rec->started ? rec->output.c_str() : nullptr;
}
const char* perfmonger_start_time(const perfmonger_recording* rec) {
  return rec && rec->started ? rec->start_time.c_str() : nullptr;
}
int perfmonger_exit_status(const perfmonger_recording* rec) { return rec ? rec->exit_status : -1; }

void perfmonger_free(perfmonger_recording* rec) {
  if (!rec) return;
  if (rec->started && rec->pid > 0) perfmonger_stop(rec, nullptr, nullptr);
  delete rec;
}

}  // extern "C"
