#include "daemon/session_files.hh"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "common/clock.hh"
#include "common/error.hh"
#include "common/io.hh"
#include "common/user_names.hh"
#include "daemon/process_info.hh"

namespace pm {
namespace {

std::string ReadFd(int fd) {
  std::string text;
  char buf[4096];
  for (off_t at = 0;;) {
    ssize_t n = ::pread(fd, buf, sizeof buf, at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buf, static_cast<size_t>(n));
    at += n;
  }
}

// One word per argument: "+" then the bytes, with '%', controls and space
// as %XX (so an empty argument is "+").
std::optional<std::vector<std::string>> DecodeSessionArgs(std::string_view text) {
  std::vector<std::string> args;
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  while (!text.empty()) {
    std::string_view word = text.substr(0, text.find(' '));
    text.remove_prefix(std::min(text.size(), word.size() + 1));
    if (!word.starts_with('+')) return std::nullopt;
    std::string arg;
    for (size_t i = 1; i < word.size(); ++i) {
      if (word[i] != '%') {
        arg.push_back(word[i]);
        continue;
      }
      if (i + 2 >= word.size()) return std::nullopt;
      int hi = hex(word[i + 1]), lo = hex(word[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      arg.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    }
    args.push_back(std::move(arg));
  }
  return args;
}

[[noreturn]] void Refuse(const std::string& path, const std::string& why) {
  throw SetupError("refusing " + path + ": " + why);
}

// Opens a session file of ours: never through a symlink, never one that
// another user owns, never blocking on a FIFO (O_NONBLOCK until fstat has
// shown a regular file). Invalid when it does not exist and `flags` has no
// O_CREAT.
UniqueFd OpenOurs(const std::string& path, int flags) {
  int fd;
  do {
    fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0600);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0 && errno == ENOENT && !(flags & O_CREAT)) return {};
  if (fd < 0 && errno == ELOOP) Refuse(path, "it is a symbolic link (remove it)");
  if (fd < 0 && errno == ENXIO) Refuse(path, "not a regular file (remove it)");
  if (fd < 0) throw SystemError(path);
  UniqueFd owned = UniqueFd::Adopt(fd);
  struct stat st;
  if (fstat(fd, &st) != 0) throw SystemError(path);
  if (!S_ISREG(st.st_mode)) Refuse(path, "not a regular file (remove it)");
  if (st.st_uid != geteuid())
    Refuse(path, "owned by uid " + std::to_string(st.st_uid) + ", not by you");
  // Another name of some other file (made with ln): writing would change it.
  if (st.st_nlink != 1)
    Refuse(path, "it has " + std::to_string(st.st_nlink) + " hard links (remove it)");
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) throw SystemError(path);
  return owned;
}

std::string EncodeState(const SessionState& s) {
  return "pid " + std::to_string(s.pid) + "\nprocess_start " +
         std::to_string(s.process_start) + "\nstart_ns " + std::to_string(s.start_ns) +
         "\nargs " + EncodeSessionArgs(s.args) + "\noutput " + s.output;
}

// The output path comes last and runs to the end: it may hold newlines.
std::optional<SessionState> DecodeState(std::string_view text) {
  SessionState s;
  auto number = [&](std::string_view key, auto& value) {
    if (!text.starts_with(key)) return false;
    text.remove_prefix(key.size());
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr == text.data() + text.size() || *ptr != '\n') return false;
    text.remove_prefix(static_cast<size_t>(ptr - text.data()) + 1);
    return true;
  };
  if (!number("pid ", s.pid) || !number("process_start ", s.process_start) ||
      !number("start_ns ", s.start_ns) || !text.starts_with("args "))
    return std::nullopt;
  size_t nl = text.find('\n');
  if (nl == std::string_view::npos) return std::nullopt;
  std::optional<std::vector<std::string>> args = DecodeSessionArgs(text.substr(5, nl - 5));
  text.remove_prefix(nl + 1);
  if (!args || !text.starts_with("output ")) return std::nullopt;
  s.args = std::move(*args);
  s.output = text.substr(7);
  return s;
}

// What the pidfile names, when no session of ours holds the lock.
struct PidfileFinding {
  std::optional<SessionState> perfmonger_1_0;  // a live PerfMonger recorder
  std::string stale;                           // else why it is stale ("": leave it)
  struct stat st {};
};

std::optional<pid_t> ParsePid(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  pid_t pid = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), pid);
  if (ec != std::errc() || ptr != text.data() + text.size() || pid <= 0) return std::nullopt;
  return pid;
}

std::optional<PidfileFinding> InspectPidfile(const std::string& path) {
  UniqueFd fd = OpenOurs(path, O_RDONLY);
  if (!fd) return std::nullopt;
  PidfileFinding found;
  if (fstat(fd.Get(), &found.st) != 0) throw SystemError(path);
  std::optional<pid_t> pid = ParsePid(ReadFd(fd.Get()));
  if (!pid) {
    found.stale = "it holds no pid";
    return found;
  }
  std::string who = "PID " + std::to_string(*pid);
  std::optional<uint64_t> start = ProcessStartTime(*pid);
  std::optional<uid_t> uid = ProcessRealUid(*pid);
  if (!start || !uid || IsZombie(*pid)) {
    found.stale = who + " is not running";
  } else if (*uid != getuid()) {
    // A pid reused by another user's process, whatever its command line.
    found.stale = who + " is another user's (uid " + std::to_string(*uid) + ")";
  } else if (RunsOurExecutable(*pid)) {
    // Not a session (ours hold the lock), maybe one starting: left alone.
  } else if (std::vector<std::string> args = ProcessArgs(*pid);
             std::optional<size_t> program = PerfmongerRecorderProgram(args)) {
    SessionState s{*pid, *start, StartTimeRealtimeNs(*start).value_or(0), "", {}, true};
    s.args.assign(args.begin() + static_cast<std::ptrdiff_t>(*program) + 1, args.end());
    found.perfmonger_1_0 = std::move(s);
  } else {
    found.stale = who + " is not a perfmonger recorder";
  }
  return found;
}

// Unlinks the pidfile if it is still the file inspected.
bool RemoveIfSame(const std::string& path, const struct stat& inspected) {
  struct stat now;
  if (lstat(path.c_str(), &now) != 0) return false;
  if (now.st_dev != inspected.st_dev || now.st_ino != inspected.st_ino) return false;
  if (unlink(path.c_str()) != 0 && errno != ENOENT) throw SystemError(path);
  return true;
}

[[noreturn]] void RefuseRunning(pid_t pid) {
  throw SetupError("another perfmonger is already running in background mode (PID: " +
                   (pid > 0 ? std::to_string(pid) : std::string("?")) + ")");
}

}  // namespace

std::string EncodeSessionArgs(const std::vector<std::string>& args) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string text;
  for (const std::string& arg : args) {
    if (!text.empty()) text.push_back(' ');
    text.push_back('+');
    for (unsigned char c : arg) {
      if (c > ' ' && c != '%' && c != 0x7f) {
        text.push_back(static_cast<char>(c));
        continue;
      }
      text.push_back('%');
      text.push_back(kHex[c >> 4]);
      text.push_back(kHex[c & 15]);
    }
  }
  return text;
}

SessionPaths DefaultSessionPaths() {
  const char* env = std::getenv("TMPDIR");
  std::string dir = env && *env ? env : "/tmp";
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  std::string base = dir + "/perfmonger-" + UserNames::Local().Name(geteuid()) + "-session";
  return {base + ".pid", base + ".lock"};
}

SessionLock::SessionLock(const SessionPaths& paths, const std::string& output)
    : paths_(paths), lock_(OpenOurs(paths.lockfile, O_RDWR | O_CREAT)) {
  if (flock(lock_.Get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) throw SystemError("flock " + paths.lockfile);
    std::optional<SessionState> other = DecodeState(ReadFd(lock_.Get()));
    RefuseRunning(other ? other->pid : 0);
  }
  std::optional<PidfileFinding> found = InspectPidfile(paths.pidfile);
  if (found && found->perfmonger_1_0) RefuseRunning(found->perfmonger_1_0->pid);
  pid_t pid = getpid();
  SessionState state{pid, ProcessStartTime(pid).value_or(0), NowRealtimeNs(), output, {}, false};
  if (const char* args = std::getenv(kSessionArgsEnv))
    state.args = DecodeSessionArgs(args).value_or(std::vector<std::string>{});
  if (ftruncate(lock_.Get(), 0) != 0) throw SystemError(paths.lockfile);
  std::string text = EncodeState(state);
  if (pwrite(lock_.Get(), text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()))
    throw SystemError(paths.lockfile);
  // Under the lock, whatever is left at the pidfile is stale.
  if (found) RemoveIfSame(paths.pidfile, found->st);
  UniqueFd pidfile = OpenAt(AT_FDCWD, paths.pidfile,
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
  WriteAll(pidfile.Get(), std::to_string(pid));
}

SessionLock::~SessionLock() {
  // Still under the lock: no other session can have written this pidfile.
  unlink(paths_.pidfile.c_str());
}

SessionLookup FindSession(const SessionPaths& paths, bool remove_stale) {
  UniqueFd lock = OpenOurs(paths.lockfile, O_RDONLY);
  if (lock && flock(lock.Get(), LOCK_SH | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) throw SystemError("flock " + paths.lockfile);
    std::optional<SessionState> state = DecodeState(ReadFd(lock.Get()));
    // The holder is alive (it holds the lock); its state names it.
    if (state && ProcessStartTime(state->pid) != state->process_start) return {};
    return {state, ""};
  }
  // No session of ours, and none can start while we hold the shared lock.
  std::optional<PidfileFinding> found = InspectPidfile(paths.pidfile);
  if (!found) return {};
  if (found->perfmonger_1_0) return {found->perfmonger_1_0, ""};
  if (remove_stale && !found->stale.empty() && RemoveIfSame(paths.pidfile, found->st))
    return {std::nullopt, found->stale};
  return {};
}

bool SessionLockReleased(const SessionPaths& paths) {
  UniqueFd lock = OpenOurs(paths.lockfile, O_RDONLY);
  return !lock || flock(lock.Get(), LOCK_SH | LOCK_NB) == 0;
}

}  // namespace pm
