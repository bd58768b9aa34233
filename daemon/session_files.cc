#include "daemon/session_files.hh"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>

#include "common/error.hh"
#include "common/io.hh"
#include "daemon/clock.hh"

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

// By hand from /etc/passwd: the static binary has no NSS (tools/no_nss.cc).
std::string UserName(uid_t uid) {
  try {
    UniqueFd fd = OpenAt(AT_FDCWD, "/etc/passwd", O_RDONLY);
    std::string text = ReadFd(fd.Get());
    std::string_view rest = text;
    while (!rest.empty()) {
      std::string_view line = rest.substr(0, rest.find('\n'));
      rest.remove_prefix(std::min(rest.size(), line.size() + 1));
      size_t c1 = line.find(':'), c2 = line.find(':', c1 + 1), c3 = line.find(':', c2 + 1);
      if (c3 == std::string_view::npos) continue;
      std::string_view id = line.substr(c2 + 1, c3 - c2 - 1);
      uid_t value;
      auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), value);
      if (ec == std::errc() && ptr == id.data() + id.size() && value == uid)
        return std::string(line.substr(0, c1));
    }
  } catch (const std::exception&) {
    // No /etc/passwd: fall back to the number.
  }
  return std::to_string(uid);
}

// Opens a session file of ours: never through a symlink, never one that
// another user owns. nullopt-like invalid fd when it does not exist and
// `flags` has no O_CREAT.
UniqueFd OpenOurs(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0 && errno == ENOENT && !(flags & O_CREAT)) return {};
  if (fd < 0 && errno == ELOOP)
    throw UsageError("refusing " + path + ": it is a symbolic link (remove it)");
  if (fd < 0) throw SystemError(path);
  UniqueFd owned = UniqueFd::Adopt(fd);
  struct stat st;
  if (fstat(fd, &st) != 0) throw SystemError(path);
  if (!S_ISREG(st.st_mode))
    throw UsageError("refusing " + path + ": not a regular file (remove it)");
  if (st.st_uid != geteuid())
    throw UsageError("refusing " + path + ": owned by uid " +
                     std::to_string(st.st_uid) + ", not by you");
  return owned;
}

void RemoveStalePidfile(const std::string& path) {
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    throw SystemError(path);
  }
  if (S_ISLNK(st.st_mode))
    throw UsageError("refusing " + path + ": it is a symbolic link (remove it)");
  if (st.st_uid != geteuid())
    throw UsageError("refusing " + path + ": owned by uid " +
                     std::to_string(st.st_uid) + ", not by you");
  if (unlink(path.c_str()) != 0 && errno != ENOENT) throw SystemError(path);
}

std::string EncodeState(const SessionState& s) {
  return "pid " + std::to_string(s.pid) + "\nprocess_start " +
         std::to_string(s.process_start) + "\nstart_ns " +
         std::to_string(s.start_ns) + "\noutput " + s.output;
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
      !number("start_ns ", s.start_ns) || !text.starts_with("output "))
    return std::nullopt;
  s.output = text.substr(7);
  return s;
}

}  // namespace

SessionPaths DefaultSessionPaths() {
  const char* env = std::getenv("TMPDIR");
  std::string dir = env && *env ? env : "/tmp";
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  std::string base = dir + "/perfmonger-" + UserName(geteuid()) + "-session";
  return {base + ".pid", base + ".lock"};
}

std::optional<uint64_t> ProcessStartTime(pid_t pid) {
  UniqueFd fd;
  try {
    fd = OpenAt(AT_FDCWD, "/proc/" + std::to_string(pid) + "/stat", O_RDONLY);
  } catch (const std::system_error&) {
    return std::nullopt;
  }
  std::string text = ReadFd(fd.Get());
  size_t paren = text.rfind(')');  // the command name may hold spaces and ')'
  if (paren == std::string::npos) return std::nullopt;
  std::string_view rest = std::string_view(text).substr(paren + 1);
  for (int field = 2; field < 22; ++field) {  // field 2 is "(comm)"
    size_t space = rest.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(space + 1);
  }
  uint64_t start = 0;
  auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), start);
  if (ec != std::errc()) return std::nullopt;
  return start;
}

SessionLock::SessionLock(const SessionPaths& paths, const std::string& output)
    : paths_(paths), lock_(OpenOurs(paths.lockfile, O_RDWR | O_CREAT)) {
  if (flock(lock_.Get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) throw SystemError("flock " + paths.lockfile);
    std::optional<SessionState> other = DecodeState(ReadFd(lock_.Get()));
    throw UsageError("another perfmonger is already running in background mode (PID: " +
                     (other ? std::to_string(other->pid) : std::string("?")) + ")");
  }
  pid_t pid = getpid();
  SessionState state{pid, ProcessStartTime(pid).value_or(0), NowRealtimeNs(), output};
  if (ftruncate(lock_.Get(), 0) != 0) throw SystemError(paths.lockfile);
  std::string text = EncodeState(state);
  if (pwrite(lock_.Get(), text.data(), text.size(), 0) != static_cast<ssize_t>(text.size()))
    throw SystemError(paths.lockfile);
  RemoveStalePidfile(paths.pidfile);
  UniqueFd pidfile = OpenAt(AT_FDCWD, paths.pidfile,
                            O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
  WriteAll(pidfile.Get(), std::to_string(pid));
}

SessionLock::~SessionLock() {
  // Still under the lock: no other session can have written this pidfile.
  unlink(paths_.pidfile.c_str());
}

std::optional<SessionState> FindLiveSession(const SessionPaths& paths) {
  UniqueFd lock = OpenOurs(paths.lockfile, O_RDONLY);
  if (!lock) return std::nullopt;
  if (flock(lock.Get(), LOCK_SH | LOCK_NB) == 0) return std::nullopt;  // nobody holds it
  if (errno != EWOULDBLOCK) throw SystemError("flock " + paths.lockfile);
  std::optional<SessionState> state = DecodeState(ReadFd(lock.Get()));
  // The holder is alive (it holds the lock); its state names it.
  if (state && ProcessStartTime(state->pid) != state->process_start) return std::nullopt;
  return state;
}

bool SessionLockReleased(const SessionPaths& paths) {
  UniqueFd lock = OpenOurs(paths.lockfile, O_RDONLY);
  return !lock || flock(lock.Get(), LOCK_SH | LOCK_NB) == 0;
}

}  // namespace pm
